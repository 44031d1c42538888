import ReflectorFirmware
import Testing

/// Procedure counters that skip ahead name the procedures between; a new series, a counter that
/// goes back, or one that moved half the range or more names nothing.
@Suite struct ProcedureSequenceTests {
    @Test func skipsAreNamed() {
        var s = ProcedureSequence()
        #expect(s.reported(7) == nil)
        #expect(s.reported(8) == nil)
        let skip = s.reported(12)
        #expect(skip?.first == 9 && skip?.count == 3)
        #expect(s.reported(13) == nil)
        // Across the 16-bit wrap.
        _ = s.reported(0xFFFE)
        let wrap = s.reported(1)
        #expect(wrap?.first == 0xFFFF && wrap?.count == 2)
    }

    @Test func newSeriesAndBackwardsNameNothing() {
        var s = ProcedureSequence()
        _ = s.reported(40)
        #expect(s.reported(3) == nil)  // went back: a new series
        s.restart()
        #expect(s.reported(90) == nil)
        #expect(s.reported(90 &+ 0x8000) == nil)  // half the range: not a skip
        #expect(s.reported(90 &+ 0x8000 &+ 2)?.count == 1)
    }
}
