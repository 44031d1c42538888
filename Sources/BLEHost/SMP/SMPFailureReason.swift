/// The Reason of Pairing Failed (Core 6.0 Vol 3 Part H §3.5.5, Table 3.7).
public enum SMPFailureReason: UInt8, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    case passkeyEntryFailed = 0x01
    case oobNotAvailable = 0x02
    case authenticationRequirements = 0x03
    case confirmValueFailed = 0x04
    case pairingNotSupported = 0x05
    case encryptionKeySize = 0x06
    case commandNotSupported = 0x07
    case unspecifiedReason = 0x08
    case repeatedAttempts = 0x09
    case invalidParameters = 0x0A
    case dhKeyCheckFailed = 0x0B
    case numericComparisonFailed = 0x0C
    case brEdrPairingInProgress = 0x0D
    case crossTransportKeyDerivationNotAllowed = 0x0E
    case keyRejected = 0x0F
    case busy = 0x10

    public var description: String {
        switch self {
        case .passkeyEntryFailed: "Passkey Entry Failed"
        case .oobNotAvailable: "OOB Not Available"
        case .authenticationRequirements: "Authentication Requirements"
        case .confirmValueFailed: "Confirm Value Failed"
        case .pairingNotSupported: "Pairing Not Supported"
        case .encryptionKeySize: "Encryption Key Size"
        case .commandNotSupported: "Command Not Supported"
        case .unspecifiedReason: "Unspecified Reason"
        case .repeatedAttempts: "Repeated Attempts"
        case .invalidParameters: "Invalid Parameters"
        case .dhKeyCheckFailed: "DHKey Check Failed"
        case .numericComparisonFailed: "Numeric Comparison Failed"
        case .brEdrPairingInProgress: "BR/EDR Pairing In Progress"
        case .crossTransportKeyDerivationNotAllowed: "Cross-transport Key Derivation/Generation Not Allowed"
        case .keyRejected: "Key Rejected"
        case .busy: "Busy"
        }
    }
}
