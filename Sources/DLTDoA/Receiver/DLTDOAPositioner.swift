import EmulatorMath
/// What an app does with DL-TDoA measurements to know where it is, as a reference
/// implementation: rounds from `TDoARoundAssembler` (clock-offset correction and time
/// differences), one epoch per block (every cluster's latest round), a fix from `TDoASolver`
/// (Chan–Ho, then Levenberg–Marquardt with NLOS anchors rejected), then `PositionTracker`.
///
/// Anchors of many deployments sit on one ceiling plane, where height is poorly observable:
/// when the anchors of an epoch span less than `minimumHeightSpread` vertically, the solver
/// works in 2D at `assumedHeight` (a phone in hand).
public struct DLTDOAPositioner: Sendable {
    public var assembler = TDoARoundAssembler()
    public var solver = TDoASolver()
    public var tracker = PositionTracker()
    /// σ of one arrival time, metres (timestamp noise and multipath).
    public var timingSigma: Double
    public var assumedHeight: Double
    public var minimumHeightSpread: Double

    private var pending: [TDoARound] = []
    private var previous: Vector3?

    public init(timingSigma: Double = 0.15, assumedHeight: Double = 1.2, minimumHeightSpread: Double = 1.0) {
        self.timingSigma = timingSigma
        self.assumedHeight = assumedHeight
        self.minimumHeightSpread = minimumHeightSpread
    }

    /// Adds a measurement; returns the fixes of the epochs it completes.
    public mutating func add(_ m: DLTDOAMeasurement) -> [DLTDOAPositionFix] {
        var fixes: [DLTDOAPositionFix] = []
        for round in assembler.add(m) {
            // A second round of a cluster, or a block later, starts a new epoch.
            if pending.contains(where: { $0.initiatorAddress == round.initiatorAddress }) || (pending.first.map { round.time - $0.time > 0.15 } ?? false) {
                if let f = solvePending() { fixes.append(f) }
            }
            pending.append(round)
        }
        return fixes
    }

    /// Solves what is pending (the last epoch, at the end of a run).
    public mutating func flush() -> DLTDOAPositionFix? { solvePending() }

    private mutating func solvePending() -> DLTDOAPositionFix? {
        defer { pending.removeAll() }
        guard let first = pending.first else { return nil }
        let groups = pending.map { TDoAGroup(reference: $0.initiatorPosition, anchors: $0.differences.map(\.position),
                                             rangeDifferences: $0.differences.map(\.rangeDifference)) }
        let heights = pending.flatMap { [$0.initiatorPosition.z] + $0.differences.map(\.position.z) }
        let flat = (heights.max() ?? 0) - (heights.min() ?? 0) < minimumHeightSpread
        let problem = TDoAProblem(groups: groups, timingSigma: timingSigma, fixedHeight: flat ? assumedHeight : nil)
        guard let fix = solver.solve(problem, previous: previous) else { return nil }
        previous = fix.position
        let update = tracker.update(fix: fix.position, covariance: fix.covariance, at: first.time)
        let tracked: Vector3? = update.outcome == .rejected ? nil : update.position
        return DLTDOAPositionFix(time: first.time, fix: fix, tracked: tracked, rounds: pending, problem: problem)
    }
}
