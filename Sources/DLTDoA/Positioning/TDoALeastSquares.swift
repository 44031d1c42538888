import EmulatorMath
/// Weighted nonlinear least squares for TDoA on all groups at once, by Levenberg–Marquardt
/// (reference §3.2; `LevenbergMarquardt`): residuals f_i = (‖x − a_i‖ − ‖x − a_ref‖) − r_i,
/// Jacobian rows u_i − u_ref, W = Q⁻¹ block diagonal with the exact inverse (I − 11ᵀ/(n+1))/σ²
/// of Q = σ²(I + 11ᵀ) per group, step (JᵀWJ + λ diag JᵀWJ) δ = −JᵀWf. The sums are formed in
/// one pass without matrices (see `TDoAMeasurementSet`), so an iteration allocates nothing.
///
/// NLOS / outlier rejection (reference §5), with the one-sided model that NLOS only ever
/// delays: anchors known to be late from earlier epochs (`presumedLate`) are left out first;
/// then, while the cost fᵀWf exceeds the χ² quantile of its degrees of freedom
/// (`testProbability`), every anchor is left out in turn and the fit redone. Only an anchor
/// the others see arriving late can be the culprit; of those, the one whose removal leaves the
/// lowest cost (plus, with a tracker's `prediction`, the capped innovation of the fix it gives:
/// the epoch alone may not tell two subsets apart) is rejected if the drop exceeds the
/// one-sided 1-dof quantile (χ²₁ at 1 − 2α: a likelihood-ratio test with the delay
/// constrained ≥ 0). The test repeats while `minimumRedundancy` degrees of freedom would
/// remain. An NLOS reference is handled like any anchor: leaving it out re-references its
/// group (exact, the differences being of arrival times).
public struct TDoALeastSquares: Sendable {
    /// Levenberg–Marquardt iterations (each tries up to eight dampings until the cost falls).
    public var maxIterations: Int
    /// Converged when a step moves no coordinate by more than this times the largest coordinate
    /// (in metres, at least 1), or an accepted step lowers the cost by less than this fraction.
    public var stepTolerance: Double
    public var rejectOutliers: Bool
    /// Confidence of the global and leave-one-out chi-square tests.
    public let testProbability: Double
    /// Degrees of freedom that must remain after a rejection (≥ 1 keeps the test meaningful).
    public var minimumRedundancy: Int
    public var maxRejections: Int
    /// χ²(k) quantiles at `testProbability`, k = 1... (index k − 1).
    private let thresholds: [Double]

    public init(maxIterations: Int = 50, stepTolerance: Double = 1e-7, rejectOutliers: Bool = true, testProbability: Double = 0.999,
                minimumRedundancy: Int = 1, maxRejections: Int = 4) {
        self.maxIterations = maxIterations
        self.stepTolerance = stepTolerance
        self.rejectOutliers = rejectOutliers
        self.testProbability = testProbability
        self.minimumRedundancy = minimumRedundancy
        self.maxRejections = maxRejections
        thresholds = testProbability == 0.999 ? Self.defaultThresholds : ChiSquare.quantileTable(testProbability, maxDegreesOfFreedom: 64)
    }

    /// The table for the default 99.9 %, computed once per process (so making a solver is cheap).
    private static let defaultThresholds = ChiSquare.quantileTable(0.999, maxDegreesOfFreedom: 64)

    /// The one-sided test of a delay ≥ 0 at level α = 1 − `testProbability`: χ²₁ at 1 − 2α.
    public var lateArrivalThreshold: Double {
        testProbability == 0.999 ? Self.defaultLateThreshold : ChiSquare.quantile(max(0, 2 * testProbability - 1), degreesOfFreedom: 1)
    }

    private static let defaultLateThreshold = ChiSquare.quantile(0.998, degreesOfFreedom: 1)

    /// The χ²₃ gate at `testProbability`: the cap of a prediction's innovation in the ranking.
    private var innovationCap: Double { threshold(degreesOfFreedom: 3) }

    /// The chi-square quantile at `testProbability` for k degrees of freedom.
    public func threshold(degreesOfFreedom k: Int) -> Double {
        k <= thresholds.count ? thresholds[k - 1] : ChiSquare.quantile(testProbability, degreesOfFreedom: k)
    }

    /// Fit from `start` (its z is replaced by the fixed height in 2D), then reject late anchors
    /// if enabled. `presumedLate`: the anchors earlier epochs found late, the most significant
    /// first. Nil when there are fewer measurements than unknowns or the normal matrix is
    /// singular at the solution.
    public func solve(_ problem: TDoAProblem, from start: Vector3, prediction: TDoAPrediction? = nil,
                      presumedLate: [TDoAAnchorID] = []) -> TDoALeastSquaresResult? {
        var set = TDoAMeasurementSet(problem)
        let region = Self.region(problem)
        var rejections: [TDoARejection] = []
        if rejectOutliers {
            for (n, id) in presumedLate.enumerated() {
                guard id.group < problem.groups.count, (id.index ?? 0) < problem.groups[id.group].anchors.count else { continue }
                let j = set.flatIndex(id)
                // The evidence is the history's, not this epoch's: the strongest presumption may
                // leave an exactly determined fix (better than one with its delay); the others
                // must leave the epoch a degree of freedom to check them by, or a wrong one
                // cascades into a fix on too few anchors.
                let spare = n == 0 ? 0 : minimumRedundancy
                guard set.active[j], set.measurementCount - 1 - set.dimension >= spare else { continue }
                set.active[j] = false
                rejections.append(TDoARejection(anchor: id, reason: .persistentlyLate))
            }
        }
        guard var fit = fit(&set, from: start, within: region) else { return nil }
        var iterations = fit.iterations
        let sigma2 = problem.timingSigma * problem.timingSigma
        let late = lateArrivalThreshold
        let cap = innovationCap
        func score(_ f: Fit) -> Double {
            f.cost / sigma2 + (prediction?.innovation(f.position, covariance: f.covariance * sigma2, cap: cap) ?? 0)
        }
        func fails(_ f: Fit) -> Bool {
            f.cost / sigma2 > threshold(degreesOfFreedom: max(1, set.measurementCount - set.dimension))
        }
        var newlyRejected = 0
        while rejectOutliers, newlyRejected < maxRejections {
            let m = set.measurementCount
            guard m - set.dimension >= 1, m - 1 - set.dimension >= minimumRedundancy, fails(fit) else { break }
            var best: (index: Int, fit: Fit, score: Double)?
            for j in set.active.indices where set.active[j] {
                set.active[j] = false
                if set.measurementCount - set.dimension >= minimumRedundancy, let f = self.fit(&set, from: fit.position, within: region) {
                    iterations += f.iterations
                    if let delay = set.lateness(of: j, at: f.position), delay > 0 {
                        let sc = score(f)
                        if best == nil || sc < best!.score { best = (j, f, sc) }
                    }
                }
                set.active[j] = true
            }
            guard let b = best, (fit.cost - b.fit.cost) / sigma2 > late else { break }
            set.active[b.index] = false
            rejections.append(TDoARejection(anchor: set.anchorID(b.index), reason: .lateArrival))
            newlyRejected += 1
            fit = b.fit
        }
        // Two anchors shadowed by the same obstacle pull the same way: leaving out one leaves the
        // other's pull, and the greedy search can settle on a wrong pair whose remaining anchors
        // happen to agree on a point outside the deployment. When it rejected two or more, or
        // still fails the χ² test, every pair of anchors both arriving late is tried from the
        // set before this epoch's rejections, a fix inside the volume preferred.
        if rejectOutliers, newlyRejected >= 2 || fails(fit) {
            let kept = rejections
            for r in rejections where r.reason != .persistentlyLate { set.active[set.flatIndex(r.anchor)] = true }
            let greedyScore = score(fit)
            var best: (pair: (Int, Int), fit: Fit, score: Double)?
            if set.measurementCount - 2 - set.dimension >= minimumRedundancy {
                for a in set.active.indices where set.active[a] {
                    for b in (a + 1)..<set.active.count where set.active[b] {
                        set.active[a] = false
                        set.active[b] = false
                        if let f = self.fit(&set, from: fit.position, within: region), (set.lateness(of: a, at: f.position) ?? 0) > 0,
                           (set.lateness(of: b, at: f.position) ?? 0) > 0 {
                            iterations += f.iterations
                            let sc = score(f)
                            if best == nil || Self.better((f, sc), than: (best!.fit, best!.score), in: problem.volume) { best = ((a, b), f, sc) }
                        }
                        set.active[a] = true
                        set.active[b] = true
                    }
                }
            }
            if let b = best, newlyRejected < 2 ? b.score < greedyScore : Self.better((b.fit, b.score), than: (fit, greedyScore), in: problem.volume) {
                set.active[b.pair.0] = false
                set.active[b.pair.1] = false
                rejections = rejections.filter { $0.reason == .persistentlyLate }
                rejections.append(TDoARejection(anchor: set.anchorID(b.pair.0), reason: .lateWithAnother))
                rejections.append(TDoARejection(anchor: set.anchorID(b.pair.1), reason: .lateWithAnother))
                fit = b.fit
            } else {
                rejections = kept
                for r in kept { set.active[set.flatIndex(r.anchor)] = false }
            }
        }
        return result(fit, set, sigma2: sigma2, iterations: iterations, rejections: rejections, region: region)
    }

    private func result(_ fit: Fit, _ set: TDoAMeasurementSet, sigma2: Double, iterations: Int, rejections: [TDoARejection],
                        region: (centre: Vector3, radius: Double)) -> TDoALeastSquaresResult {
        let m = set.measurementCount
        var iterations = iterations
        var delays = set.delays(at: fit.position, normalInverse: fit.covariance)
        // A left-out anchor's delay is measured against a fit that may still hold the real
        // culprit (the first epoch blamed the wrong one); then it keeps looking late, epoch after
        // epoch. So it is also measured with the latest-looking used anchor left out, and the
        // smaller delay is its evidence: a late anchor stays late either way, a wrongly blamed
        // one is on time against the clean fit.
        if delays.contains(where: { !$0.used }),
           let suspect = delays.filter(\.used).max(by: { $0.delay / $0.sigma < $1.delay / $1.sigma }), suspect.delay > 0 {
            var clean = set
            let k = clean.flatIndex(suspect.anchor)
            clean.active[k] = false
            if clean.measurementCount >= clean.dimension, let f = self.fit(&clean, from: fit.position, within: region) {
                iterations += f.iterations
                for d in delays.indices where !delays[d].used {
                    if let late = clean.lateness(of: clean.flatIndex(delays[d].anchor), at: f.position) { delays[d].delay = min(delays[d].delay, late) }
                }
            }
        }
        return TDoALeastSquaresResult(position: fit.position, covariance: fit.covariance * sigma2, residuals: set.residuals(at: fit.position),
                                      cost: fit.cost / sigma2, degreesOfFreedom: m - set.dimension, usedMeasurements: m,
                                      iterations: iterations, converged: fit.converged, rejections: rejections, delays: delays)
    }

    /// One fit without rejection, with the anchors in `excluding` left out.
    public func fit(_ problem: TDoAProblem, from start: Vector3, excluding: Set<TDoAAnchorID> = []) -> TDoALeastSquaresResult? {
        var set = TDoAMeasurementSet(problem)
        for id in excluding { set.active[set.flatIndex(id)] = false }
        let region = Self.region(problem)
        guard let f = fit(&set, from: start, within: region) else { return nil }
        return result(f, set, sigma2: problem.timingSigma * problem.timingSigma, iterations: f.iterations, rejections: [], region: region)
    }

    struct Fit {
        var position: Vector3
        /// (Σ(u − ū)(u − ū)ᵀ)⁻¹: the covariance over σ².
        var covariance: Matrix3
        /// Σ(e − ē)², m².
        var cost: Double
        var iterations: Int
        var converged: Bool
    }

    /// Where a fix may lie: within `regionScale` times the anchors' extent (at least 20 m) of
    /// their centroid. Outside a deployment the hyperbolae flatten, and with inconsistent (NLOS)
    /// differences the cost keeps falling towards infinity: LM "converges" kilometres away.
    /// Such a fit is no fix, so the rejection and the other start points get their turn.
    static func region(_ problem: TDoAProblem) -> (centre: Vector3, radius: Double) {
        let c = problem.anchorCentroid
        var extent = 0.0
        for g in problem.groups { for a in [g.reference] + g.anchors { extent = max(extent, (a - c).length) } }
        return (c, max(20, regionScale * extent))
    }

    /// See `region`.
    static let regionScale = 3.0

    /// Inside the volume first (when there is one), then the lower score.
    static func better(_ a: (fit: Fit, score: Double), than b: (fit: Fit, score: Double), in volume: TDoAVolume?) -> Bool {
        if let volume {
            let ia = volume.contains(a.fit.position, tolerance: 1e-6), ib = volume.contains(b.fit.position, tolerance: 1e-6)
            if ia != ib { return ia }
        }
        return a.score < b.score
    }

    /// Levenberg–Marquardt on the active anchors of `set`; nil when it ends outside `region`.
    func fit(_ set: inout TDoAMeasurementSet, from start: Vector3, within region: (centre: Vector3, radius: Double)) -> Fit? {
        guard let f = fit(&set, from: start), (f.position - region.centre).length <= region.radius else { return nil }
        return f
    }

    /// Levenberg–Marquardt on the active anchors of `set`, through the normal-equations entry
    /// point: `TDoAMeasurementSet.evaluate` gives the cost, JᵀWJ and JᵀWf in the same pass, so
    /// every trial fills them (`cheapJacobian`) and an accepted one is not evaluated again. In
    /// 2-D the unknowns are x and y alone (z held at the fixed height): the XY block of JᵀWJ, and
    /// the covariance its inverse. Nil when the normal matrix is singular at the solution.
    func fit(_ set: inout TDoAMeasurementSet, from start: Vector3) -> Fit? {
        guard set.measurementCount >= set.dimension else { return nil }
        let n = set.dimension
        let z = set.fixedHeight ?? start.z
        guard start.x.isFinite, start.y.isFinite, z.isFinite else { return nil }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 + 9) { buffer -> Fit? in
            let theta = buffer.baseAddress!, normal = theta + 3
            theta[0] = start.x
            theta[1] = start.y
            theta[2] = z
            let result = LevenbergMarquardt.minimize(theta, n: n, iterations: maxIterations, tolerance: stepTolerance, cheapJacobian: true,
                                                     normal: normal) { t, normal, gradient in
                let e = set.evaluate(at: Vector3(t[0], t[1], n == 3 ? t[2] : z))
                guard e.cost.isFinite else { return nil }
                if let normal, let gradient {
                    let h = e.normal
                    if n == 3 {
                        normal[0] = h.m00; normal[1] = h.m01; normal[2] = h.m02
                        normal[3] = h.m10; normal[4] = h.m11; normal[5] = h.m12
                        normal[6] = h.m20; normal[7] = h.m21; normal[8] = h.m22
                    } else {
                        normal[0] = h.m00; normal[1] = h.m01
                        normal[2] = h.m10; normal[3] = h.m11
                    }
                    gradient[0] = e.gradient.x
                    gradient[1] = e.gradient.y
                    if n == 3 { gradient[2] = e.gradient.z }
                }
                return e.cost
            }
            guard let result else { return nil }
            let covariance = n == 3
                ? Matrix3(normal[0], normal[1], normal[2], normal[3], normal[4], normal[5], normal[6], normal[7], normal[8]).inverse
                : Matrix3(normal[0], normal[1], 0, normal[2], normal[3], 0, 0, 0, 0).inverseOfXYBlock
            guard let covariance else { return nil }
            return Fit(position: Vector3(theta[0], theta[1], theta[2]), covariance: covariance, cost: result.cost,
                       iterations: result.iterations, converged: result.converged)
        }
    }
}
