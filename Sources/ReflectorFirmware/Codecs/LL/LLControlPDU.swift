import WireFormat

/// An LL Control PDU of the Channel Sounding procedures, or one of the two generic PDUs that
/// controllers answer them with (LL_REJECT_EXT_IND, LL_UNKNOWN_RSP): Core 6.0 Vol 6 Part B
/// §2.4.2 (CS PDUs §2.4.2.42–§2.4.2.53, best knowledge of the numbering).
///
/// `encode()` gives the LL Control PDU payload `Opcode | CtrData`, i.e. what follows the
/// 2-octet LL data header (LLID 0b11, Length = the returned count). `decode` takes the same
/// octets and checks, in this order: an opcode octet is present (else `.truncated`), the opcode
/// is one of `LLControlOpcode` (else `.invalidValue(field: "Opcode")`, so a controller can
/// answer LL_UNKNOWN_RSP with `value`), the CtrData length is exactly the opcode's
/// (`.truncated` when short, `.trailingBytes` when long), then the fields.
///
/// Each PDU type also has `decode(_:)` for a payload that must carry its own opcode
/// (`.unexpectedCode` otherwise) and `encode()`, from `LLControlBody`.
public enum LLControlPDU: Sendable, Equatable {
    case unknownRsp(LLUnknownRsp)
    case rejectExtInd(LLRejectExtInd)
    case csSecReq(LLCSSecReq)
    case csSecRsp(LLCSSecRsp)
    case csCapabilitiesReq(LLCSCapabilitiesReq)
    case csCapabilitiesRsp(LLCSCapabilitiesRsp)
    case csConfigReq(LLCSConfigReq)
    case csConfigRsp(LLCSConfigRsp)
    case csReq(LLCSReq)
    case csRsp(LLCSRsp)
    case csInd(LLCSInd)
    case csTerminateReq(LLCSTerminateReq)
    case csTerminateRsp(LLCSTerminateRsp)
    case csFAEReq(LLCSFAEReq)
    case csFAERsp(LLCSFAERsp)
    case csChannelMapInd(LLCSChannelMapInd)

    public var opcode: LLControlOpcode {
        switch self {
        case .unknownRsp: return .unknownRsp
        case .rejectExtInd: return .rejectExtInd
        case .csSecReq: return .csSecReq
        case .csSecRsp: return .csSecRsp
        case .csCapabilitiesReq: return .csCapabilitiesReq
        case .csCapabilitiesRsp: return .csCapabilitiesRsp
        case .csConfigReq: return .csConfigReq
        case .csConfigRsp: return .csConfigRsp
        case .csReq: return .csReq
        case .csRsp: return .csRsp
        case .csInd: return .csInd
        case .csTerminateReq: return .csTerminateReq
        case .csTerminateRsp: return .csTerminateRsp
        case .csFAEReq: return .csFAEReq
        case .csFAERsp: return .csFAERsp
        case .csChannelMapInd: return .csChannelMapInd
        }
    }

    /// `Opcode | CtrData`, 1 + `opcode.bodyLength` octets.
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 1 + opcode.bodyLength)
        w.u8(opcode.rawValue)
        switch self {
        case let .unknownRsp(p): p.encodeBody(into: &w)
        case let .rejectExtInd(p): p.encodeBody(into: &w)
        case let .csSecReq(p): p.encodeBody(into: &w)
        case let .csSecRsp(p): p.encodeBody(into: &w)
        case let .csCapabilitiesReq(p): p.encodeBody(into: &w)
        case let .csCapabilitiesRsp(p): p.encodeBody(into: &w)
        case let .csConfigReq(p): p.encodeBody(into: &w)
        case let .csConfigRsp(p): p.encodeBody(into: &w)
        case let .csReq(p): p.encodeBody(into: &w)
        case let .csRsp(p): p.encodeBody(into: &w)
        case let .csInd(p): p.encodeBody(into: &w)
        case let .csTerminateReq(p): p.encodeBody(into: &w)
        case let .csTerminateRsp(p): p.encodeBody(into: &w)
        case let .csFAEReq(p): p.encodeBody(into: &w)
        case let .csFAERsp(p): p.encodeBody(into: &w)
        case let .csChannelMapInd(p): p.encodeBody(into: &w)
        }
        return w.bytes
    }

    /// Decodes `Opcode | CtrData`.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> LLControlPDU {
        var r = ByteReader(bytes)
        return try decodeBody(try r.value("Opcode"), &r)
    }

    /// Checks that `remaining` octets are exactly the CtrData of `op`: `.truncated` when short,
    /// `.trailingBytes` when long. The capabilities PDUs may also carry this project's 3-octet
    /// Core 6.3 IPT extension (`CSCapabilities.llExtendedBodyLength`).
    static func checkLength(_ op: LLControlOpcode, remaining: Int) throws(DecodeError) {
        let isCapabilities = op == .csCapabilitiesReq || op == .csCapabilitiesRsp
        let longest = isCapabilities ? CSCapabilities.llExtendedBodyLength : op.bodyLength
        if remaining < op.bodyLength { throw .truncated(field: "CtrData", needed: op.bodyLength - remaining) }
        if remaining > longest { throw .trailingBytes(extra: remaining - longest) }
        // Between the two capabilities forms: a Core 6.0 body with octets left over.
        if isCapabilities && remaining != op.bodyLength && remaining != longest {
            throw .trailingBytes(extra: remaining - op.bodyLength)
        }
    }

    /// Checks the exact CtrData length of `op`, then decodes the fields.
    static func decodeBody(_ op: LLControlOpcode, _ r: inout ByteReader) throws(DecodeError) -> LLControlPDU {
        try checkLength(op, remaining: r.remaining)
        let pdu: LLControlPDU
        switch op {
        case .unknownRsp: pdu = .unknownRsp(try LLUnknownRsp.decodeBody(&r))
        case .rejectExtInd: pdu = .rejectExtInd(try LLRejectExtInd.decodeBody(&r))
        case .csSecReq: pdu = .csSecReq(try LLCSSecReq.decodeBody(&r))
        case .csSecRsp: pdu = .csSecRsp(try LLCSSecRsp.decodeBody(&r))
        case .csCapabilitiesReq: pdu = .csCapabilitiesReq(try LLCSCapabilitiesReq.decodeBody(&r))
        case .csCapabilitiesRsp: pdu = .csCapabilitiesRsp(try LLCSCapabilitiesRsp.decodeBody(&r))
        case .csConfigReq: pdu = .csConfigReq(try LLCSConfigReq.decodeBody(&r))
        case .csConfigRsp: pdu = .csConfigRsp(try LLCSConfigRsp.decodeBody(&r))
        case .csReq: pdu = .csReq(try LLCSReq.decodeBody(&r))
        case .csRsp: pdu = .csRsp(try LLCSRsp.decodeBody(&r))
        case .csInd: pdu = .csInd(try LLCSInd.decodeBody(&r))
        case .csTerminateReq: pdu = .csTerminateReq(try LLCSTerminateReq.decodeBody(&r))
        case .csTerminateRsp: pdu = .csTerminateRsp(try LLCSTerminateRsp.decodeBody(&r))
        case .csFAEReq: pdu = .csFAEReq(try LLCSFAEReq.decodeBody(&r))
        case .csFAERsp: pdu = .csFAERsp(try LLCSFAERsp.decodeBody(&r))
        case .csChannelMapInd: pdu = .csChannelMapInd(try LLCSChannelMapInd.decodeBody(&r))
        }
        try r.expectEnd()
        return pdu
    }

}
