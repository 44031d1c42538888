import WireFormat

/// The body of LL_CS_TERMINATE_REQ (opcode 0x35) and LL_CS_TERMINATE_RSP (opcode 0x3A), 4 octets
/// of CtrData each (Core 6.0 Vol 6 Part B §2.4.2.49/§2.4.2.50, best knowledge): the request
/// stops the CS procedures of configuration Config_ID early (LE CS Procedure Enable with
/// Enable = 0, or an error); the response, with the same layout, acknowledges it (NimBLE answers
/// with the later of its own and the requested procedure counters).
///
/// Layout: `Config_ID (b0-5; b6-7 RFU) | Procedure_Count 2 (LE) | Error_Code 1`: NimBLE PR #1765
/// `ble_ll_cs_terminate_req_make` writes config ID, then the pending procedure counter at
/// octets 1-2, then the error code at octet 3 (`ble_ll_cs_rx_cs_terminate_req` reads it back the
/// same way); a third-party controller header (`ll_cs_terminate_req`) has the same order. Telink's 2-octet
/// `Config_ID | ErrorCode` form is an older draft and is not accepted.
/// Procedure_Count is the CS procedure counter of the procedure being (or last) run.
public struct LLCSTerminate<Direction: LLControlDirection>: LLControlFieldWalk {
    public static var opcode: LLControlOpcode { Direction.terminateOpcode }

    public var configID: UInt8
    public var procedureCount: UInt16
    /// Why the procedures stop (`.success` when the host disabled them).
    public var errorCode: HCIStatus

    public init(configID: UInt8, procedureCount: UInt16, errorCode: HCIStatus = .success) {
        (self.configID, self.procedureCount, self.errorCode) = (configID, procedureCount, errorCode)
    }

    public static var blank: Self { Self(configID: 0, procedureCount: 0) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.llConfigID(&configID)
        try c.u16(&procedureCount, "Procedure_Count")
        try c.status(&errorCode, "Error_Code")
    }

}

/// LL_CS_TERMINATE_REQ: stop the procedures of Config_ID.
public typealias LLCSTerminateReq = LLCSTerminate<LLRequest>
/// LL_CS_TERMINATE_RSP: the procedures of Config_ID stopped.
public typealias LLCSTerminateRsp = LLCSTerminate<LLResponse>
