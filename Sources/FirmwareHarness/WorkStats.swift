/// What the runner measured over a vector, by piece of work: a procedure's start (the DRBG's
/// backtracking resistance and the bit caches' reset), the planning of its first mode-0 step
/// (the mode-0 channel shuffle) and first main-mode step (the #3b shuffle or the #3c sequence),
/// and per mode the planning of every other step, the step engine's work (measurement, inline
/// PCT rotation, antenna switching) and the packing of the step data as HCI reports it.
public struct WorkStats: Sendable {
    public var procedureBegin = WorkTally()
    public var firstStepPlan = WorkTally()
    public var firstMainStepPlan = WorkTally()
    public var plan = InlineArray<4, WorkTally>(repeating: WorkTally())
    public var run = InlineArray<4, WorkTally>(repeating: WorkTally())
    public var pack = InlineArray<4, WorkTally>(repeating: WorkTally())

    public init() {}
}
