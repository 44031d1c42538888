/// Which RTT variants meet the 10 ns time-of-flight precision (`RTT_Capability`, Core 6.0
/// Vol 4 Part E §7.8.130): a set bit means 10 ns, a clear bit 150 ns. Whether a variant is
/// supported at all is said by its N value (0 = unsupported), not by this field.
public struct RTTPrecision: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: access-address-only RTT meets 10 ns.
    public static let accessAddressOnly10ns = RTTPrecision(rawValue: 1 << 0)
    /// Bit 1: RTT with a sounding sequence meets 10 ns.
    public static let sounding10ns = RTTPrecision(rawValue: 1 << 1)
    /// Bit 2: RTT with a random sequence meets 10 ns.
    public static let randomSequence10ns = RTTPrecision(rawValue: 1 << 2)
}
