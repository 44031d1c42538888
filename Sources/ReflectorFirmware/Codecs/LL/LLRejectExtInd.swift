import WireFormat

/// LL_REJECT_EXT_IND (opcode 0x11, 2 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.18):
/// rejects a control PDU the sender understood but will not accept, naming its opcode. CS
/// controllers use it to refuse LL_CS_SEC_REQ (Insufficient Security 0x2F), LL_CS_CONFIG_REQ
/// (Invalid/Unsupported LL Parameters 0x1E/0x20, LL Procedure Collision 0x23, Command
/// Disallowed 0x0C), LL_CS_REQ and the others (NimBLE PR #1765 `ble_ll_ctrl_rej_ext_ind_make`).
///
/// Layout: `Reject_Opcode 1 | Error_Code 1`. Reject_Opcode may name any opcode, known here or
/// not, so it stays a raw octet; Error_Code must be a defined Core error code.
public struct LLRejectExtInd: LLControlFieldWalk {
    public static let opcode = LLControlOpcode.rejectExtInd

    /// The opcode of the rejected PDU.
    public var rejectOpcode: UInt8
    public var errorCode: HCIStatus

    public init(rejectOpcode: UInt8, errorCode: HCIStatus) {
        (self.rejectOpcode, self.errorCode) = (rejectOpcode, errorCode)
    }

    /// Rejecting one of the PDUs of this module.
    public init(rejecting opcode: LLControlOpcode, errorCode: HCIStatus) {
        self.init(rejectOpcode: opcode.rawValue, errorCode: errorCode)
    }

    public static var blank: Self { Self(rejectOpcode: 0, errorCode: .success) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.u8(&rejectOpcode, "Reject_Opcode")
        try c.status(&errorCode, "Error_Code")
    }

}
