import Testing
@testable import AnchorFirmware

/// The simulated crystal: exact tick counts, the inverse, and the ratio.
struct AnchorClockTests {
    /// +20 ppm for 1000 s: 63 897 600 000 000 + 1 277 952 000 ticks exactly (integer arithmetic:
    /// 63 897 600 000 · 1000 · 20e-6 = 1 277 952 000), wrapped at 2⁴⁰.
    @Test func exactTicksAtLargeTimes() {
        let clock = AnchorClock(offsetTicks: 5, frequencyOffsetPPM: 20)
        let expected: UInt64 = 5 + 63_897_600_000_000 + 1_277_952_000
        #expect(clock.timestamp(atTrueTime: 1000).ticks == expected & UWBTimestamp.mask)
        // Half a second: 31 948 800 000 + 638 976 ticks.
        #expect(clock.timestamp(atTrueTime: 0.5).ticks == 5 + 31_948_800_000 + 638_976)
        // Drift 0.01 ppm/s over 100 s: ½·0.01·100² = 50 ppm·s → 3 194 880 ticks.
        let drifting = AnchorClock(offsetTicks: 0, frequencyOffsetPPM: 0, driftPPMPerSecond: 0.01)
        #expect(drifting.timestamp(atTrueTime: 100).ticks == (6_389_760_000_000 + 3_194_880) & UWBTimestamp.mask)
        #expect(abs(drifting.ratio(atTrueTime: 100) - (1 + 1e-6)) < 1e-15)
    }

    /// The inverse lands at the start of the tick, in the wrap period nearest the guess.
    @Test func inverse() {
        let clock = AnchorClock(offsetTicks: UWBTimestamp.mask - 1_000, frequencyOffsetPPM: -17.3, driftPPMPerSecond: 0.002)
        for t in [0.0, 0.001234, 3.5, 17.9, 512.25, 999.9] {
            let ts = clock.timestamp(atTrueTime: t)
            let back = clock.trueTime(of: ts, near: t + 0.3)
            #expect(back <= t + 1e-13 && t - back < 15.7e-12)
            #expect(clock.timestamp(atTrueTime: back + 4e-12) == ts)
        }
        #expect(clock.ratio(atTrueTime: 0) == 1 - 17.3e-6)
    }
}
