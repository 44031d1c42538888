@testable import ReflectorFirmware
import Testing

/// An instant named by the connection event counter's 16 bits is the event within 32,767 events
/// of the current one (Core 6.0 Vol 6 Part B §5.5.1), on the controller's 64-bit clock: after
/// the counter wraps (every 65,536 events: 491.52 s at 7.5 ms) the first procedure still starts
/// four events from now, not minutes in the past (a board that ran 2,400 procedures back to
/// back after an 8-minute soak's reconnection).
@Suite struct EventInstantTests {
    @Test(arguments: [UInt64(0), 30_000_000, 491_520_000, 513_000_000, 3_600_000_000])
    func theInstantIsTheNearestEventWithThoseSixteenBits(now: UInt64) {
        var c = CSController(capabilities: .projectReflector(), address: 1, connection: LinkConnection(handle: 0x40, isCentral: true), seed: 1)
        c.advance(to: now)
        let interval: UInt64 = 7_500
        let current = now / interval
        // Four events ahead, as LL_CS_REQ asks; and one a little behind (an instant just passed).
        #expect(c.eventTime(c.connection.eventCounter &+ 4) == (current + 4) * interval)
        if current >= 2 { #expect(c.eventTime(c.connection.eventCounter &- 2) == (current - 2) * interval) }
        #expect(c.eventTime(c.connection.eventCounter &+ 32_767) == (current + 32_767) * interval)
    }
}
