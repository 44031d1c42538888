/// Which procedures a controller reported nothing of. Within one series of procedures (from
/// LE CS Procedure Enable on) the Procedure_Counter grows by one per procedure (Core 6.0 Vol 4
/// Part E §7.7.65.44), so a counter that skips ahead names the ones between as missed: their
/// results were lost on the line, or the board was silent while they ran. A counter that does
/// not move forward (a new series, or the wrap after half the range) names nothing.
public struct ProcedureSequence: Sendable, Equatable {
    private var last: UInt16?
    /// Whether the last counter reported was the one before it again: a controller that does
    /// not count its procedures (RootCanal 1.13 reports 0 for every one).
    public private(set) var lastRepeated = false

    public init() {}

    /// Procedure `counter` was reported (whole or in part): the procedures it skipped since the
    /// last one reported, as the first counter and how many, if any.
    public mutating func reported(_ counter: UInt16) -> (first: UInt16, count: Int)? {
        defer { last = counter }
        lastRepeated = counter == last
        guard let last else { return nil }
        let step = counter &- last
        guard step > 1, step < 0x8000 else { return nil }
        return (last &+ 1, Int(step) - 1)
    }

    /// A new series of procedures (enabled again, or a new link): its counter starts afresh.
    public mutating func restart() { last = nil }
}
