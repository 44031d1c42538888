/// Delayed transmission as the DW1000/DW3000 does it: the radio ignores the low 9 bits of the
/// programmed TX time (DW1000 API `dwt_setdelayedtrxtime`/`dwt_readsystime`: "low order 9 bits
/// will always be 0", 512 ticks ≈ 8.01 ns), and the RMARKER leaves the antenna a TX antenna delay
/// after that. So the timestamp an anchor writes in its own frame must be predicted as
/// programmed + antenna delay (reference §4 "predicted TX RMARKER").
///
/// Decision: the requested time is rounded *up* to the granularity, because a frame sent early
/// would fall before its slot boundary; 2⁴⁰ is a multiple of 512, so rounding wraps cleanly.
public enum DelayedTransmission {
    /// Ticks of TX-time granularity: 2⁹.
    public static let granularityTicks: UInt64 = 512

    /// The time the radio will really use for `requested`: the next multiple of 512 ticks.
    public static func programmed(requested: UWBTimestamp) -> UWBTimestamp {
        UWBTimestamp(ticks: (requested.ticks &+ (granularityTicks - 1)) & ~(granularityTicks - 1))
    }

    /// The RMARKER time at the antenna for a transmission requested at `requested`: the value to
    /// put in the frame's TX timestamp.
    public static func rmarker(requested: UWBTimestamp, antennaDelayTicks: UInt32) -> UWBTimestamp {
        programmed(requested: requested).advanced(by: Int64(antennaDelayTicks))
    }
}
