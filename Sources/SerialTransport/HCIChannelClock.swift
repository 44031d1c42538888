import HCITransport

/// The two clocks an `HCIChannel` reads, injected so tests control time instead of sleeping.
public struct HCIChannelClock {
    /// Monotonic milliseconds: read deadlines and the stall timer.
    public var monotonicMilliseconds: () -> Int64
    /// Timestamps for captured packets.
    public var captureTimestamp: () -> BTSnoopTimestamp

    public init(monotonicMilliseconds: @escaping () -> Int64, captureTimestamp: @escaping () -> BTSnoopTimestamp) {
        self.monotonicMilliseconds = monotonicMilliseconds
        self.captureTimestamp = captureTimestamp
    }

    /// `clock_gettime(CLOCK_MONOTONIC)` and the wall clock (`CLOCK_REALTIME`).
    public static var system: HCIChannelClock {
        HCIChannelClock(
            monotonicMilliseconds: SystemCalls.monotonicMilliseconds,
            captureTimestamp: { BTSnoopTimestamp(unixMicroseconds: SystemCalls.wallClockMicroseconds()) })
    }
}
