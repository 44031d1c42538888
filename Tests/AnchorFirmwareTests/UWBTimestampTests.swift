import Testing
@testable import AnchorFirmware

/// The 40-bit RCTU counter: differences across a wrap, and the tick length.
struct UWBTimestampTests {
    @Test func differenceAcrossTheWrap() {
        let before = UWBTimestamp(ticks: UWBTimestamp.mask - 99)
        let after = before.advanced(by: 250)
        #expect(after.ticks == 150)
        #expect(after.ticks(since: before) == 250)
        #expect(before.ticks(since: after) == -250)
        #expect(UWBTimestamp(ticks: 1 << 40).ticks == 0)
    }

    /// One tick is 15.65 ps, and the counter wraps after 17.21 s.
    @Test func tickLength() {
        #expect(abs(UWBTimestamp.seconds(1) - 15.65e-12) < 0.005e-12)
        #expect(abs(UWBTimestamp.seconds(Int64(UWBTimestamp.mask) + 1) - 17.207) < 0.001)
    }
}
