import ReflectorFirmware

extension HCIStatus {
    /// The status as messages name it: its name and code ("unknownCommand (0x1)").
    public var described: String { "\(self) (0x\(String(rawValue, radix: 16)))" }
}

extension SMPFailureReason {
    /// The reason as messages name it: its name and code ("confirmValueFailed (0x04)").
    public var described: String { "\(self) (0x\(rawValue < 16 ? "0" : "")\(String(rawValue, radix: 16, uppercase: true)))" }
}

extension PairingMethod {
    /// The association model as people name it.
    public var name: String {
        switch self {
        case .justWorks: "Just Works"
        case .numericComparison: "Numeric Comparison"
        case .passkey: "Passkey Entry"
        }
    }
}
