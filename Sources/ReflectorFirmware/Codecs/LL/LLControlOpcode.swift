/// The LL Control PDU opcodes this module decodes (Core 6.0 Vol 6 Part B §2.4.2, the LL Control
/// PDU opcode table; CS values as NimBLE PR #1765 `ble_ll_ctrl.h`, Telink's and Bumble's LL
/// tables list them), each with the exact length of its CtrData.
///
/// An LL Control PDU payload is `Opcode (1) | CtrData (bodyLength)`; the LL data PDU header
/// (LLID = 0b11, length) is not part of it. The length is fixed per opcode, so a decoder
/// rejects any other length. LL_CS_FAE_RSP (73 octets with the opcode) is longer than the
/// 27-octet default LL payload: a link must have negotiated a larger data length (LL_LENGTH_REQ)
/// before it can carry it.
public enum LLControlOpcode: UInt8, Sendable, Equatable, CaseIterable {
    /// LL_UNKNOWN_RSP (§2.4.2.8): Unknown_Type.
    case unknownRsp = 0x07
    /// LL_REJECT_EXT_IND (§2.4.2.18): Reject_Opcode, Error_Code.
    case rejectExtInd = 0x11
    case csSecRsp = 0x2D
    case csCapabilitiesReq = 0x2E
    case csCapabilitiesRsp = 0x2F
    case csConfigReq = 0x30
    case csConfigRsp = 0x31
    case csReq = 0x32
    case csRsp = 0x33
    case csInd = 0x34
    case csTerminateReq = 0x35
    case csFAEReq = 0x36
    case csFAERsp = 0x37
    case csChannelMapInd = 0x38
    case csSecReq = 0x39
    case csTerminateRsp = 0x3A

    /// Octets of CtrData after the opcode.
    public var bodyLength: Int {
        switch self {
        case .unknownRsp: return 1
        case .rejectExtInd: return 2
        case .csSecReq, .csSecRsp: return 20
        case .csCapabilitiesReq, .csCapabilitiesRsp: return 25
        case .csConfigReq: return 27
        case .csConfigRsp: return 1
        case .csReq: return 28
        case .csRsp: return 21
        case .csInd: return 18
        case .csTerminateReq, .csTerminateRsp: return 4
        case .csFAEReq: return 0
        case .csFAERsp: return 72
        case .csChannelMapInd: return 12
        }
    }

    /// Whether this is one of the Channel Sounding PDUs (0x2D...0x3A).
    public var isChannelSounding: Bool { rawValue >= 0x2D && rawValue <= 0x3A }
}
