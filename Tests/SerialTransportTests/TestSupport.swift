import Foundation
@testable import SerialTransport

/// Moves a value into another thread when the test knows only that thread uses it from then on.
struct Handoff<T>: @unchecked Sendable {
    let value: T
}

/// Runs work on its own thread and hands the result back with a deadline, so a test that
/// starts a thread also waits for it (and fails instead of hanging if it never finishes).
final class BackgroundJob<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, any Error>?

    init(_ work: @escaping @Sendable () throws -> T) {
        let thread = Thread { [self] in
            let r = Result { try work() }
            self.result = r
            self.done.signal()
        }
        thread.start()
    }

    /// The job's result, or nil if it did not finish within `seconds`.
    func wait(seconds: Double = 10) -> Result<T, any Error>? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result
    }
}

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    var milliseconds: Int64 = 0
    var microseconds: Int64 = 1_000_000

    var channelClock: HCIChannelClock {
        HCIChannelClock(
            monotonicMilliseconds: { self.milliseconds },
            captureTimestamp: { BTSnoopTimestampFactory.make(self.microseconds) })
    }
}

import HCITransport

enum BTSnoopTimestampFactory {
    static func make(_ unixMicroseconds: Int64) -> BTSnoopTimestamp { BTSnoopTimestamp(unixMicroseconds: unixMicroseconds) }
}

/// Bytes 0, 1, …, 255, 0, … with the troublesome ones (0x0A, 0x0D, 0x11, 0x13, 0x03, 0x04) in
/// every 256.
func pattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
}
