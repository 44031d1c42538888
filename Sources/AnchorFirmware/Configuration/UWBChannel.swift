/// The UWB channel an anchor transmits on. Only HRP channels 5 and 9: the ones FiRa mandates and
/// the only ones the DW3000 supports (Qorvo DW3000 driver: "Only channels 5 & 9 for DW3000").
public enum UWBChannel: UInt8, Equatable, Hashable, Sendable, CaseIterable {
    case channel5 = 5
    case channel9 = 9

    /// Centre frequency, Hz (IEEE 802.15.4z HRP channel plan: 6489.6 and 7987.2 MHz).
    public var centreFrequencyHz: Double {
        switch self {
        case .channel5: 6_489_600_000
        case .channel9: 7_987_200_000
        }
    }

    /// The channel number as it goes on air and in configuration (5 or 9).
    public var number: UInt8 { rawValue }
}
