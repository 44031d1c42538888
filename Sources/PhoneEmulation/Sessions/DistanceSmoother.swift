import RangingEstimation

/// The distance an app is given, from each procedure's tones and raw estimate: while the scene
/// is still, the estimate of the still scene's pooled tones (`StillScenePool`: the last K
/// procedures fitted as one, whose error shrinks like 1/√K where a mean of distances keeps
/// the multipath bias); while it moves, or before two procedures agree, the outlier-gated
/// Kalman track of the raw estimates (`DistanceTracker`), which is fed every procedure so it
/// is current when the pool is left.
public struct DistanceSmoother: Sendable {
    public var tracker: DistanceTracker
    public private(set) var pool: StillScenePool
    /// Whether the pool is used at all (off: the tracker alone, as before).
    public var poolsStillScenes: Bool

    /// One procedure's outcome.
    public struct Update: Sendable {
        /// What the app is told (nil before the first estimate).
        public var distance: Double?
        /// The estimate of the pooled tones, when the scene is still and two or more procedures agree.
        public var still: DistanceEstimate?
        /// Procedures in the still scene's pool after this one.
        public var stillProcedures: Int
    }

    public init(tracker: DistanceTracker = DistanceTracker(), pool: StillScenePool = StillScenePool(), poolsStillScenes: Bool = true) {
        self.tracker = tracker
        self.pool = pool
        self.poolsStillScenes = poolsStillScenes
    }

    /// Adds a procedure taken at `time` seconds: its tones, and its estimate by `estimator`
    /// (nil: it gave none), which also fits the pooled tones.
    public mutating func update(tones: ToneSet, estimate: DistanceEstimate?, at time: Double,
                                estimator: any DistanceEstimator) -> Update {
        let tracked = tracker.update(estimate?.distance, at: time)
        guard poolsStillScenes else { return Update(distance: tracked, still: nil, stillProcedures: 0) }
        let verdict = pool.add(tones, distance: estimate?.distance)
        var still: DistanceEstimate?
        if verdict != .held, verdict != .skipped, let pooled = pool.pooledTones() { still = estimator.estimate(pooled) }
        return Update(distance: still?.distance ?? tracked, still: still, stillProcedures: pool.count)
    }

    /// Forgets the still scene but keeps the track (the link went and came back: the devices
    /// may have moved meanwhile).
    public mutating func forgetScene() { pool.reset() }

    /// Forgets the scene and the track (a new session).
    public mutating func reset() {
        tracker = DistanceTracker(measurementSigma: tracker.measurementSigma, acceleration: tracker.acceleration,
                                  gate: tracker.gate, resetAfter: tracker.resetAfter)
        pool.reset()
    }
}
