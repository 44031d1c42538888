/// The CS step modes (Core 6.0 Vol 6 Part H §3.x): 0 calibration and frequency offset,
/// 1 round-trip time, 2 phase-based ranging, 3 both.
public enum CSMode: UInt8, Sendable, Equatable, CaseIterable {
    case mode0 = 0, mode1 = 1, mode2 = 2, mode3 = 3

    /// Whether a step of this mode carries a CS_SYNC packet (and so a CS access address).
    @inline(__always) public var hasCSSync: Bool { self != .mode2 }
    /// Whether a step of this mode carries phase-measurement tones with antenna switching.
    @inline(__always) public var hasTones: Bool { self == .mode2 || self == .mode3 }
}
