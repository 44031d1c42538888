import ToolJSON

/// One procedure's figures as `loopback` and `range` print them: its counter, when it ended,
/// the distance it gave, the session's smoothed distance and the estimate's quality, and the
/// true distance where there is one (loopback's air; range's `--truth`).
public struct ProcedureRow: Equatable, Sendable {
    public var procedureCounter: UInt16
    /// Seconds since the run started.
    public var time: Double
    public var truth: Double?
    public var raw: Double?
    public var smoothed: Double?
    public var quality: Double?
    /// How many procedures of a still scene the smoothed distance pooled (nil: not said; 0 or 1:
    /// the tracked distance of a scene that moves, or of the first procedure).
    public var pooled: Int?

    public init(procedureCounter: UInt16, time: Double, truth: Double? = nil, raw: Double?, smoothed: Double?, quality: Double?,
                pooled: Int? = nil) {
        self.procedureCounter = procedureCounter
        self.time = time
        self.truth = truth
        self.raw = raw
        self.smoothed = smoothed
        self.quality = quality
        self.pooled = pooled
    }

    /// The distance's error against the truth, when both are there.
    public var error: Double? {
        guard let raw, let truth else { return nil }
        return raw - truth
    }

    /// `{"procedure_counter": 0, "time_s": 0.038617, "true_distance_m": 3.0000, "distance_m": ...,
    /// "smoothed_distance_m": ..., "quality": ..., "pooled_procedures": 5, "error_m": ...}`, the
    /// truth and the error only where there is a truth, the pool where it is said; null where
    /// there is no value (or a NaN).
    func json(_ j: inout JSONWriter) {
        j.object { j in
            j.field("procedure_counter", procedureCounter)
            j.field("time_s", time, decimals: 6)
            if let truth { j.field("true_distance_m", truth, decimals: 4) }
            j.field("distance_m", raw, decimals: 4)
            j.field("smoothed_distance_m", smoothed, decimals: 4)
            j.field("quality", quality, decimals: 3)
            if let pooled { j.field("pooled_procedures", pooled) }
            if truth != nil { j.field("error_m", error, decimals: 4) }
        }
    }
}
