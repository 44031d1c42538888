/// Normalized Attack Detector Metric support for one RTT variant (`NADM_Sounding_Capability`,
/// `NADM_Random_Capability`, Core 6.0 Vol 4 Part E §7.8.130): bit 0 = phase-based NADM.
/// RFU bits are kept for exact re-encoding.
public struct NADMCapability: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let phaseBased = NADMCapability(rawValue: 1 << 0)
}
