/// Optional CS subfeatures (`Subfeatures_Supported`, Core 6.0 Vol 4 Part E §7.8.130; bit 4
/// added by Core 6.3 for Inline PCT Transfer). Bit 0 is RFU (a draft "companion signal").
/// RFU bits are kept for exact re-encoding.
public struct CSSubfeatures: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Bit 1: CS without transmitter Frequency Actuation Error (the controller's FAE is zero).
    public static let noTransmitterFAE = CSSubfeatures(rawValue: 1 << 1)
    /// Bit 2: channel selection algorithm #3c.
    public static let channelSelection3c = CSSubfeatures(rawValue: 1 << 2)
    /// Bit 3: phase-based ranging from the RTT sounding sequence.
    public static let phaseBasedRangingFromSoundingSequence = CSSubfeatures(rawValue: 1 << 3)
    /// Bit 4 (Core 6.3): CS with Inline PCT Transfer (IPT) in the reflector role.
    public static let inlinePCTReflector = CSSubfeatures(rawValue: 1 << 4)
}
