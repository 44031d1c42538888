import Foundation

/// Monotonic microseconds for the virtual board's clock.
enum SystemClock {
    static func microseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec / 1000)
    }
}
