import Testing
@testable import HCITransport

struct BTSnoopTimestampTests {
    @Test func epochConstants() {
        // BlueZ/Bumble's constant is the 2000-01-01 offset: 946 684 800 s after the Unix one.
        #expect(BTSnoopTimestamp.year2000Offset - BTSnoopTimestamp.unixEpochOffset == 946_684_800_000_000)
        #expect(BTSnoopTimestamp(unixMicroseconds: 0).microsecondsSinceYearZero == 0x00DC_DDB3_0F2F_8000)
        #expect(BTSnoopTimestamp(unixMicroseconds: 946_684_800_000_000).microsecondsSinceYearZero == 0x00E0_3AB4_4A67_6000)
    }

    @Test func bumbleCaptureFromTheReferenceDecodesToItsDate() {
        // reference/serial.md §3: Bumble wrote 00E33F1BEB0985A5 on 2026-11-29 (day 20 786 after 1970).
        let t = BTSnoopTimestamp(microsecondsSinceYearZero: 0x00E3_3F1B_EB09_85A5)
        #expect(t.unixMicroseconds / 86_400_000_000 == 20_786)
    }

    @Test func virtualClock() {
        // By default virtual time 0 is 2000-01-01, i.e. exactly BlueZ's constant.
        #expect(BTSnoopTimestamp(virtualMicroseconds: 0).microsecondsSinceYearZero == BTSnoopTimestamp.year2000Offset)
        #expect(BTSnoopTimestamp(virtualMicroseconds: 0, origin: 0) == BTSnoopTimestamp(unixMicroseconds: 0))
        let origin: Int64 = 1_795_952_853_000_000
        let t = BTSnoopTimestamp(virtualMicroseconds: 1_250, origin: origin)
        #expect(t.unixMicroseconds == origin + 1_250)
        #expect(t > BTSnoopTimestamp(virtualMicroseconds: 1_249, origin: origin))
    }

    @Test func extremesSaturateInsteadOfTrapping() {
        #expect(BTSnoopTimestamp(unixMicroseconds: .max).microsecondsSinceYearZero == .max)
        #expect(BTSnoopTimestamp(virtualMicroseconds: .max, origin: .max).microsecondsSinceYearZero == .max)
        #expect(BTSnoopTimestamp(microsecondsSinceYearZero: .min).unixMicroseconds == .min)
        #expect(BTSnoopTimestamp(unixMicroseconds: .min).unixMicroseconds == .min)
    }
}
