import WireFormat

/// A phase correction term (PCT): the I/Q of a measured tone as two 12-bit two's-complement
/// numbers packed into 24 bits, I in bits 0–11 and Q in bits 12–23, sent little-endian in 3
/// octets (Core 6.0 Vol 4 Part E §7.7.65.44; Zephyr `BT_HCI_LE_CS_PCT_I_MASK 0x000FFF`,
/// `..._Q_MASK 0xFFF000`). Mode-1/3 PCT1/PCT2 carry the same 24 bits in 4 octets.
public struct PhaseCorrectionTerm: Sendable, Equatable, Hashable {
    /// The packed 24 bits (the top 8 bits of the `UInt32` are always zero).
    public let packed: UInt32

    /// From the 24 packed bits; bits above 23 are dropped.
    public init(packed: UInt32) { self.packed = packed & 0x00FF_FFFF }

    /// From integer I and Q, each clamped to the 12-bit range −2048...2047.
    public init(i: Int, q: Int) {
        let ci = UInt32(truncatingIfNeeded: Swift.min(Swift.max(i, -2048), 2047)) & 0xFFF
        let cq = UInt32(truncatingIfNeeded: Swift.min(Swift.max(q, -2048), 2047)) & 0xFFF
        packed = ci | cq << 12
    }

    /// From floating-point I and Q, rounded to nearest and saturated to ±2047 (NaN becomes 0),
    /// the way a measurement pipeline hands its I/Q to the report.
    public init(i: Double, q: Double) {
        self.init(i: PhaseCorrectionTerm.saturate(i), q: PhaseCorrectionTerm.saturate(q))
    }

    /// From single-precision I and Q, as the step engine measures them: the same rounding and
    /// saturation as the `Double` form, bit for bit (a Float is exact as a Double; clamping to
    /// ±2047 first and then rounding half away from zero gives what adding ±0.5 and truncating
    /// gives), in a few FPU instructions instead of software double arithmetic on a
    /// Cortex-M33, whose FPU is single precision.
    @inline(__always)
    public init(i: Float, q: Float) {
        let ci = UInt32(bitPattern: PhaseCorrectionTerm.saturate(i)) & 0xFFF
        let cq = UInt32(bitPattern: PhaseCorrectionTerm.saturate(q)) & 0xFFF
        packed = ci | cq << 12
    }

    @inline(__always)
    static func saturate(_ x: Float) -> Int32 {
        guard x == x else { return 0 }
        return Int32(Swift.min(Swift.max(x, -2047), 2047).rounded(.toNearestOrAwayFromZero))
    }

    @inline(__always)
    static func saturate(_ x: Double) -> Int {
        guard x == x else { return 0 }
        if x >= 2047 { return 2047 }
        if x <= -2047 { return -2047 }
        return Int(x >= 0 ? x + 0.5 : x - 0.5)
    }

    /// I, sign-extended from 12 bits.
    public var i: Int16 { Int16(truncatingIfNeeded: packed << 4) >> 4 }
    /// Q, sign-extended from 12 bits.
    public var q: Int16 { Int16(truncatingIfNeeded: packed >> 8) >> 4 }

    func encode(into w: inout ByteWriter) { w.u24(packed) }

    static func decode(from r: inout ByteReader) throws(DecodeError) -> PhaseCorrectionTerm {
        PhaseCorrectionTerm(packed: try r.u24("PCT"))
    }
}
