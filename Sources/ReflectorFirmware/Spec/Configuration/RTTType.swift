/// How the CS_SYNC packets of mode-1/3 steps measure round-trip time (Create Config `RTT_Type`).
public enum RTTType: UInt8, Sendable, Equatable, CaseIterable {
    case accessAddressOnly = 0
    case sounding32 = 1
    case sounding96 = 2
    case random32 = 3
    case random64 = 4
    case random96 = 5
    case random128 = 6

    /// Octets of sounding or random sequence that follow the access address.
    public var sequenceOctets: Int {
        switch self {
        case .accessAddressOnly: return 0
        case .sounding32, .random32: return 4
        case .sounding96, .random96: return 12
        case .random64: return 8
        case .random128: return 16
        }
    }
}
