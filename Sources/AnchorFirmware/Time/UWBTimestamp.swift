/// A reading of a UWB radio's timestamp counter: ticks of the ranging counter time unit (RCTU),
/// 1/(128 · 499.2 MHz) ≈ 15.65 ps, about 4.69 mm of flight, in a 40-bit counter that wraps every
/// 2⁴⁰ ticks ≈ 17.21 s (IEEE 802.15.4z HRP; DW3000's RCTU and 40-bit system time). Every
/// difference of two readings is taken modulo 2⁴⁰, so a wrap between them changes nothing:
/// the wrap bugs that plague TDoA receivers come from subtracting raw counters.
public struct UWBTimestamp: Equatable, Hashable, Sendable {
    /// Width of the counter in bits.
    public static let bits = 40
    /// 2⁴⁰ − 1: the counter's largest value.
    public static let mask: UInt64 = (1 << 40) - 1
    /// Ticks per second: 128 · 499.2 MHz = 63.8976 GHz.
    public static let ticksPerSecond = 63_897_600_000.0

    /// The counter value, 0 ..< 2⁴⁰.
    public let ticks: UInt64

    /// The reading `ticks` modulo 2⁴⁰.
    @inline(__always)
    public init(ticks: UInt64) { self.ticks = ticks & Self.mask }

    /// Ticks from `earlier` to this reading, taken modulo 2⁴⁰ into −2³⁹ ..< 2³⁹: right across a
    /// wrap, as long as the two readings are less than 8.6 s apart.
    @inline(__always)
    public func ticks(since earlier: UWBTimestamp) -> Int64 {
        let d = (ticks &- earlier.ticks) & Self.mask
        return d >= (1 << 39) ? Int64(d) - (1 << 40) : Int64(d)
    }

    /// The reading `delta` ticks later (earlier when negative), wrapping.
    @inline(__always)
    public func advanced(by delta: Int64) -> UWBTimestamp { UWBTimestamp(ticks: ticks &+ UInt64(bitPattern: delta)) }

    /// Seconds corresponding to `ticks` ticks.
    @inline(__always)
    public static func seconds(_ ticks: Int64) -> Double { Double(ticks) / ticksPerSecond }
}
