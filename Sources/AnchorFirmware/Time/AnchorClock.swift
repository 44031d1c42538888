/// An anchor's crystal as both the simulation and the firmware see it: a 40-bit RCTU counter
/// (`UWBTimestamp`) running at 63.8976 GHz · (1 + ppm(t)·10⁻⁶), where ppm(t) = ppm + drift·t.
/// The local reading at true time t is
/// `offset + ticksPerSecond · (t + 10⁻⁶·(ppm·t + ½·drift·t²))`, floored to a whole tick and
/// wrapped at 2⁴⁰ (IEEE 802.15.4z RCTU; DW3000 40-bit system time).
///
/// Decision: the integer part of t is multiplied in integer arithmetic and only the fraction of a
/// second and the ppm terms go through `Double`, because at t = 1000 s the counter holds 6.4·10¹³
/// ticks and a single `Double` product would leave only ~0.01 tick of margin for the floor.
public struct AnchorClock: Equatable, Sendable {
    /// The counter reading at true time 0.
    public var offsetTicks: UInt64
    /// Frequency offset at t = 0, ppm: positive runs fast (more ticks per true second).
    public var frequencyOffsetPPM: Double
    /// Linear change of the frequency offset, ppm per second (temperature drift).
    public var driftPPMPerSecond: Double

    /// Exact integer ticks per second, 128 · 499.2 MHz.
    static let ticksPerSecondInteger: Int64 = 63_897_600_000

    public init(offsetTicks: UInt64, frequencyOffsetPPM: Double, driftPPMPerSecond: Double = 0) {
        self.offsetTicks = offsetTicks
        self.frequencyOffsetPPM = frequencyOffsetPPM
        self.driftPPMPerSecond = driftPPMPerSecond
    }

    /// Ticks elapsed since true time 0 (unwrapped), as a whole part and the fraction of the tick
    /// in progress (0 ..< 1).
    func elapsed(atTrueTime t: Double) -> (whole: Int64, fraction: Double) {
        let seconds = t.rounded(.down)
        let fractionOfSecond = t - seconds  // exact in Double
        let f = UWBTimestamp.ticksPerSecond
        // Divide by 10⁶ last: that division is correctly rounded, so whole-tick results stay whole.
        let rest = fractionOfSecond * f
            + f * (frequencyOffsetPPM * t + 0.5 * driftPPMPerSecond * t * t) / 1e6
        let restWhole = rest.rounded(.down)
        return (Int64(seconds) * Self.ticksPerSecondInteger + Int64(restWhole), rest - restWhole)
    }

    /// The local counter reading at true time `t` seconds.
    public func timestamp(atTrueTime t: Double) -> UWBTimestamp {
        UWBTimestamp(ticks: offsetTicks &+ UInt64(bitPattern: elapsed(atTrueTime: t).whole))
    }

    /// Local ticks per true tick at true time `t`: 1 + ppm(t)·10⁻⁶.
    public func ratio(atTrueTime t: Double) -> Double {
        1 + 1e-6 * (frequencyOffsetPPM + driftPPMPerSecond * t)
    }

    /// The true time at which the counter reaches `timestamp` (the start of that tick), taking
    /// the 2⁴⁰ wrap period nearest the guess `t` (within ±8.6 s). Newton's method on the offset
    /// u from `t`, so that large t costs no precision.
    public func trueTime(of timestamp: UWBTimestamp, near t: Double) -> Double {
        let here = elapsed(atTrueTime: t)
        let reading = UWBTimestamp(ticks: offsetTicks &+ UInt64(bitPattern: here.whole))
        // Ticks the counter must still advance from its exact value at t.
        let target = Double(timestamp.ticks(since: reading)) - here.fraction
        let f = UWBTimestamp.ticksPerSecond
        let a = 1e-6 * frequencyOffsetPPM, d = 1e-6 * driftPPMPerSecond
        var u = target / (f * ratio(atTrueTime: t))
        for _ in 0..<4 {
            let value = f * (u * (1 + a) + 0.5 * d * u * (2 * t + u)) - target
            let slope = f * (1 + a + d * (t + u))
            u -= value / slope
        }
        return t + u
    }
}
