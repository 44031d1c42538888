import EmulatorMath
/// What an app does with DL-TDoA measurements to know where it is, as a reference
/// implementation: rounds from `TDoARoundAssembler` (clock-offset correction and time
/// differences), one epoch per block (every cluster's latest round), a fix from `TDoASolver`
/// (Chan–Ho, then Levenberg–Marquardt with NLOS anchors rejected), then `PositionTracker`.
///
/// Anchors of many deployments sit on one ceiling plane, where height is poorly observable:
/// when the anchors of an epoch span less than `minimumHeightSpread` vertically, the solver
/// works in 2D at `assumedHeight` (a phone in hand).
///
/// What the deployment tells the solver: the volume a person can be in (from `floorHeight` to
/// `headroom` above the highest anchor, the footprint of every anchor heard so far widened by
/// `footprintMargin`),
/// the tracker's prediction, each anchor's delay over recent epochs (`AnchorDelayHistory`: an
/// anchor significantly late is left out before the fit, and reinstated when it is not), and
/// the noise the fits actually show (`NoiseScaleEstimate`), against which σ is scaled.
public struct DLTDOAPositioner: Sendable {
    public var assembler = TDoARoundAssembler()
    public var solver = TDoASolver()
    public var tracker = PositionTracker()
    /// σ of one arrival time, metres (timestamp noise and multipath), as configured.
    public var timingSigma: Double
    public var assumedHeight: Double
    public var minimumHeightSpread: Double
    /// The floor's z in the anchors' frame, metres (the lowest anchor if that is lower).
    public var floorHeight = 0.0
    /// How far beyond the anchors' footprint a fix may lie, and above the highest anchor, metres.
    public var footprintMargin = 2.0
    public var headroom = 1.0
    /// Forgetting factor of each anchor's delay history per epoch, the one-sided threshold (in
    /// standard errors) above which it is presumed late, and the epochs it needs first.
    public var delayForgetting = 0.85
    public var lateThreshold = 4.0
    public var lateMinimumEpochs = 3
    /// Scale σ by the noise the fits show (off: trust `timingSigma`).
    public var estimatesNoise = true

    /// Epochs that had enough differences for a position and still gave no fix, and the last
    /// such epoch's time and reason.
    public private(set) var unsolvedEpochs = 0
    public private(set) var lastNoFix: (time: Double, reason: TDoANoFix)?

    private var pending: [TDoARound] = []
    private var delays: [Int: AnchorDelayHistory] = [:]
    /// Every anchor heard, by address.
    private var knownAnchors: [Int: Vector3] = [:]
    private var noise = NoiseScaleEstimate()

    public init(timingSigma: Double = 0.15, assumedHeight: Double = 1.2, minimumHeightSpread: Double = 1.0) {
        self.timingSigma = timingSigma
        self.assumedHeight = assumedHeight
        self.minimumHeightSpread = minimumHeightSpread
    }

    /// σ as the fits show it, metres.
    public var measuredTimingSigma: Double { timingSigma * (estimatesNoise ? noise.scale : 1).squareRoot() }

    /// An anchor's delay over recent epochs (nil: never seen), by address.
    public func delayHistory(of address: Int) -> AnchorDelayHistory? { delays[address] }

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
        let groups = pending.map { TDoAGroup(reference: $0.referencePosition, anchors: $0.differences.map(\.position),
                                             rangeDifferences: $0.differences.map(\.rangeDifference)) }
        let anchors = pending.flatMap { [$0.referencePosition] + $0.differences.map(\.position) }
        let heights = anchors.map(\.z)
        let flat = (heights.max() ?? 0) - (heights.min() ?? 0) < minimumHeightSpread
        let scale = estimatesNoise ? noise.scale : 1
        // The volume of every anchor heard so far: one epoch's losses must not shrink the room.
        for round in pending {
            knownAnchors[round.referenceAddress] = round.referencePosition
            for d in round.differences { knownAnchors[d.address] = d.position }
        }
        let volume = TDoAVolume(anchors: Array(knownAnchors.values), floor: floorHeight, margin: footprintMargin, headroom: headroom)
        let problem = TDoAProblem(groups: groups, timingSigma: timingSigma * scale.squareRoot(), fixedHeight: flat ? assumedHeight : nil, volume: volume,
                                  likelyHeight: assumedHeight)
        var late: [(id: TDoAAnchorID, score: Double)] = []
        for id in anchorIDs() {
            guard let h = delays[address(of: id)], h.isLate(threshold: lateThreshold, minimumEpochs: lateMinimumEpochs) else { continue }
            late.append((id, h.score))
        }
        let presumedLate = late.sorted { $0.score > $1.score }.map(\.id)
        let prediction = tracker.prediction(at: first.time)
        var solved = problem
        var outcome = solver.solveOrExplain(problem, prediction: prediction, presumedLate: presumedLate)
        if case .failure(let why) = outcome, problem.fixedHeight == nil, !why.isInconsistent {
            // Too few anchors, or too poor a geometry, for x, y and z: x, y at the phone-in-hand
            // height rather than no fix (measurements no position explains stay unexplained).
            solved.fixedHeight = assumedHeight
            if case .success(let f) = solver.solveOrExplain(solved, prediction: prediction, presumedLate: presumedLate) { outcome = .success(f) }
        }
        let fix: TDoAFix
        switch outcome {
        case .success(let f): fix = f
        case .failure(let why):
            if problem.measurementCount >= 2 { unsolvedEpochs += 1 }
            lastNoFix = (first.time, why)
            return nil
        }
        for d in fix.delays { delays[address(of: d.anchor), default: AnchorDelayHistory()].add(delay: d.delay, sigma: d.sigma, forgetting: delayForgetting) }
        noise.add(cost: fix.cost, degreesOfFreedom: fix.degreesOfFreedom, solvedAtScale: scale)
        let update = tracker.update(fix: fix.position, covariance: fix.covariance, at: first.time)
        let tracked: Vector3? = update.outcome == .rejected ? nil : update.position
        return DLTDOAPositionFix(time: first.time, fix: fix, tracked: tracked, rounds: pending, problem: solved)
    }

    /// Every anchor of the pending epoch, as the problem numbers them.
    private func anchorIDs() -> [TDoAAnchorID] {
        pending.indices.flatMap { g in [TDoAAnchorID.reference(group: g)] + pending[g].differences.indices.map { TDoAAnchorID(group: g, index: $0) } }
    }

    /// The address of an anchor of the pending epoch (its IDs come from the pending rounds).
    private func address(of id: TDoAAnchorID) -> Int { TDoARound.address(of: id, in: pending) ?? -1 }
}
