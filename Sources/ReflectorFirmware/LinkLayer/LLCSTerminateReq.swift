/// LL_CS_TERMINATE_REQ (opcode 0x35, 4 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.50,
/// best knowledge): stops the CS procedures of configuration Config_ID early (LE CS Procedure
/// Enable with Enable = 0, or an error). The peer answers LL_CS_TERMINATE_RSP.
///
/// Layout: `Config_ID (b0-5; b6-7 RFU) | Procedure_Count 2 (LE) | Error_Code 1`: NimBLE PR #1765
/// `ble_ll_cs_terminate_req_make` writes config ID, then the pending procedure counter at
/// octets 1-2, then the error code at octet 3 (`ble_ll_cs_rx_cs_terminate_req` reads it back the
/// same way); a third-party controller header (`ll_cs_terminate_req`) has the same order. Telink's 2-octet
/// `Config_ID | ErrorCode` form is an older draft and is not accepted.
/// Procedure_Count is the CS procedure counter of the procedure being (or last) run.
public struct LLCSTerminateReq: Sendable, Equatable {
    public static let opcode = LLControlOpcode.csTerminateReq

    public var configID: UInt8
    public var procedureCount: UInt16
    /// Why the procedures stop (`.success` when the host disabled them).
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

    static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSTerminateReq {
        let id = try r.llConfigIDOctet().configID
        let count = try r.u16("Procedure_Count")
        return LLCSTerminateReq(configID: id, procedureCount: count, errorCode: try r.llErrorCode())
    }
}

extension LLCSTerminateReq {
    /// `Opcode | CtrData` (see `LLControlPDU.encode()`).
    public func encode() -> [UInt8] { LLControlPDU.csTerminateReq(self).encode() }

    /// Decodes `Opcode | CtrData`; `.unexpectedCode` for another opcode.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> LLCSTerminateReq {
        guard case let .csTerminateReq(p) = try LLControlPDU.payload(bytes, expecting: opcode) else {
            throw .unexpectedCode(expected: Int(opcode.rawValue), found: -1)
        }
        return p
    }
}
