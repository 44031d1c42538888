/// Which HCI form of the capabilities block to encode (Core 6.0 Vol 4 Part E §7.8.130 and the
/// Core 6.3 v2 commands 0x20A5/0x20A6 and event 0x38).
///
/// Implementations disagree on the v2 form (reference §8): Zephyr and Nordic end it after
/// T_IP2_IPT_Times_Supported and T_SW_IPT_Time_Supported (31 octets); Bumble appends the
/// three PHY-specific RTT N values (34 octets) and cannot parse the shorter form. Decoders
/// accept both; an encoder must be told which one the host expects.
public enum CapabilitiesLayout: UInt8, Sendable, Equatable, CaseIterable {
    /// Core 6.0 block: 28 octets.
    case v1
    /// Core 6.3 v2 block as Zephyr/Nordic lay it out: v1 + T_IP2_IPT (2) + T_SW_IPT (1) = 31 octets.
    case v2
    /// Core 6.3 v2 block as Bumble lays it out: v2 + RTT_2M_AA_Only_N, RTT_2M_Sounding_N,
    /// RTT_2M_Random_Sequence_N = 34 octets.
    case v2WithPHYSpecificRTT

    /// Octets of the block (without Status or Conn_Handle).
    public var byteCount: Int {
        switch self {
        case .v1: return 28
        case .v2: return 31
        case .v2WithPHYSpecificRTT: return 34
        }
    }

    /// The layout of a block of exactly `byteCount` octets, `nil` for any other length.
    public init?(byteCount: Int) {
        switch byteCount {
        case 28: self = .v1
        case 31: self = .v2
        case 34: self = .v2WithPHYSpecificRTT
        default: return nil
        }
    }
}
