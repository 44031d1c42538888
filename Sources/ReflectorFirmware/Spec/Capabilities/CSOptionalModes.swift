/// The optional CS step modes a controller supports (`Modes_Supported`, Core 6.0 Vol 4 Part E
/// §7.8.130; LL_CS_CAPABILITIES_REQ/RSP `Mode_Types`, Vol 6 Part B §2.4.2.x).
///
/// Modes 0, 1 and 2 are mandatory for every CS controller (Core 6.0 Vol 6 Part H §3.x), so the
/// layout has a bit for mode 3 only. RFU bits are kept for exact re-encoding.
public struct CSOptionalModes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: mode 3 (RTT and phase-based ranging in one step).
    public static let mode3 = CSOptionalModes(rawValue: 1 << 0)

    /// Whether a controller with these optional modes supports `mode` (0, 1, 2 always).
    @inline(__always) public func supports(_ mode: CSMode) -> Bool {
        mode == .mode3 ? contains(.mode3) : true
    }
}
