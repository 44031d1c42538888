/// LL_CS_TERMINATE_RSP (opcode 0x3A, 4 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.50,
/// best knowledge): acknowledges LL_CS_TERMINATE_REQ; both sides then stop after the named
/// procedure and report LE CS Procedure Enable Complete with the error code.
///
/// Layout, the same as the request: `Config_ID (b0-5; b6-7 RFU) | Procedure_Count 2 (LE) |
/// Error_Code 1` (NimBLE PR #1765 `ble_ll_cs_rx_cs_terminate_req` builds it and
/// `ble_ll_cs_rx_cs_terminate_rsp` parses it). NimBLE answers with the later of its own and the requested procedure
/// counters.
public struct LLCSTerminateRsp: Sendable, Equatable {
    public static let opcode = LLControlOpcode.csTerminateRsp

    public var configID: UInt8
    public var procedureCount: UInt16
    public var errorCode: HCIStatus

    public init(configID: UInt8, procedureCount: UInt16, errorCode: HCIStatus = .success) {
        self.configID = configID
        self.procedureCount = procedureCount
        self.errorCode = errorCode
    }

    public func encodeBody(into w: inout ByteWriter) {
        w.u8(configID & 0x3F)
        w.u16(procedureCount)
        w.u8(errorCode.rawValue)
    }

    static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSTerminateRsp {
        let id = try r.llConfigIDOctet().configID
        let count = try r.u16("Procedure_Count")
        return LLCSTerminateRsp(configID: id, procedureCount: count, errorCode: try r.llErrorCode())
    }
}

extension LLCSTerminateRsp {
    /// `Opcode | CtrData` (see `LLControlPDU.encode()`).
    public func encode() -> [UInt8] { LLControlPDU.csTerminateRsp(self).encode() }

    /// Decodes `Opcode | CtrData`; `.unexpectedCode` for another opcode.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> LLCSTerminateRsp {
        guard case let .csTerminateRsp(p) = try LLControlPDU.payload(bytes, expecting: opcode) else {
            throw .unexpectedCode(expected: Int(opcode.rawValue), found: -1)
        }
        return p
    }
}
