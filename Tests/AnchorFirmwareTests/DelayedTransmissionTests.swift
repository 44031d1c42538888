import Testing
@testable import AnchorFirmware

/// The radio's 512-tick TX granularity and the antenna delay.
struct DelayedTransmissionTests {
    @Test func roundsUpNeverEarly() {
        #expect(DelayedTransmission.programmed(requested: UWBTimestamp(ticks: 1024)).ticks == 1024)
        #expect(DelayedTransmission.programmed(requested: UWBTimestamp(ticks: 1025)).ticks == 1536)
        #expect(DelayedTransmission.programmed(requested: UWBTimestamp(ticks: 1535)).ticks == 1536)
        // Across the wrap: 2⁴⁰ − 1 rounds up to 0.
        #expect(DelayedTransmission.programmed(requested: UWBTimestamp(ticks: UWBTimestamp.mask)).ticks == 0)
        // 0x12_3456_7801 → 0x12_3456_7A00, + 16 400 antenna delay = 0x12_3456_BA10.
        #expect(DelayedTransmission.rmarker(requested: UWBTimestamp(ticks: 0x12_3456_7801), antennaDelayTicks: 16_400).ticks
            == 0x12_3456_BA10)
    }
}
