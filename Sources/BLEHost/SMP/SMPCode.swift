/// The Code octet of an SMP command (Core 6.0 Vol 3 Part H §3.3, Table 3.3); the values not
/// listed are reserved, and a command with one is ignored (§3.3).
public enum SMPCode: UInt8, Sendable, CaseIterable {
    case pairingRequest = 0x01
    case pairingResponse = 0x02
    case pairingConfirm = 0x03
    case pairingRandom = 0x04
    case pairingFailed = 0x05
    case encryptionInformation = 0x06
    case centralIdentification = 0x07
    case identityInformation = 0x08
    case identityAddressInformation = 0x09
    case signingInformation = 0x0A
    case securityRequest = 0x0B
    case pairingPublicKey = 0x0C
    case pairingDHKeyCheck = 0x0D
    case keypressNotification = 0x0E

    /// The command's exact length, Code included (§3.5–§3.6): every SMP command has one.
    public var length: Int {
        switch self {
        case .pairingRequest, .pairingResponse: 7
        case .pairingConfirm, .pairingRandom, .encryptionInformation, .identityInformation, .signingInformation, .pairingDHKeyCheck: 17
        case .pairingFailed, .securityRequest, .keypressNotification: 2
        case .centralIdentification: 11
        case .identityAddressInformation: 8
        case .pairingPublicKey: 65
        }
    }
}
