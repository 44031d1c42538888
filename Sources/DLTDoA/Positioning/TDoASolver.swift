import EmulatorMath
/// The receiver's position solver. It never answers with a point the deployment rules out:
///
/// 1. Levenberg–Marquardt with late anchors rejected (`TDoALeastSquares`) from Chan–Ho's closed
///    form on the largest group (else the prediction, else the volume's centre). A fit that
///    converged inside the volume, passes the χ² test with nothing newly rejected and agrees
///    with the tracker's prediction is the answer (the common case: one fit).
/// 2. Otherwise, where the geometry is poor or the answer ambiguous, more starts: the
///    prediction, the volume's centre, and the mirror image of the first fit through the
///    anchors' best-fitting plane (near-coplanar anchors see a point and its mirror alike).
///    Of the fits, one inside the volume wins over one outside, then the lower cost plus the
///    capped innovation against the prediction and the capped distance from a hand's height.
/// 3. If even that fit lies outside the volume (the noise put the minimum above the ceiling),
///    it is refitted with z held at the bound it crossed and x, y kept in the footprint, and
///    flagged `heldToVolume`; its z variance is the free fit's plus the distance it was moved.
///
/// Every fix carries its covariance (the inverse Fisher information at the fix), which anchors
/// were left out and why, and every anchor's delay. A pure function of its inputs.
public struct TDoASolver: Sendable {
    public var closedForm: ChanHoSolver
    public var leastSquares: TDoALeastSquares
    /// How many times the χ² quantile the best fit may exceed before the epoch is called
    /// inconsistent and gets no fix (with outlier rejection on; off, every fit is answered).
    public var inconsistency = 10.0
    /// σ of a phone's height about the problem's `likelyHeight`, metres.
    public var likelyHeightSigma = 0.6

    public init(closedForm: ChanHoSolver = ChanHoSolver(), leastSquares: TDoALeastSquares = TDoALeastSquares()) {
        self.closedForm = closedForm
        self.leastSquares = leastSquares
    }

    /// A fix, or nil when the problem has fewer independent differences than unknowns, no fit
    /// succeeds, or no position explains the measurements (`inconsistency`). `presumedLate`: anchors the receiver's history holds to be NLOS.
    public func solve(_ problem: TDoAProblem, prediction: TDoAPrediction? = nil, presumedLate: [TDoAAnchorID] = []) -> TDoAFix? {
        try? solveOrExplain(problem, prediction: prediction, presumedLate: presumedLate).get()
    }

    /// A fix, or why there is none (`TDoANoFix`).
    public func solveOrExplain(_ problem: TDoAProblem, prediction: TDoAPrediction? = nil,
                               presumedLate: [TDoAAnchorID] = []) -> Result<TDoAFix, TDoANoFix> {
        guard problem.timingSigma > 0, problem.measurementCount >= problem.dimension else {
            return .failure(.tooFewDifferences(have: problem.measurementCount, need: problem.dimension))
        }
        let cap = leastSquares.threshold(degreesOfFreedom: 3)
        var iterations = 0
        var best: (result: TDoALeastSquaresResult, fromChan: Bool, score: Double)?
        func consider(_ r: TDoALeastSquaresResult, fromChan: Bool) {
            iterations += r.iterations
            let score = r.cost + (prediction?.innovation(r.position, covariance: r.covariance, cap: cap) ?? 0) + heightPenalty(r.position, problem, cap: cap)
            guard let b = best else { best = (r, fromChan, score); return }
            if let v = problem.volume {
                let inside = v.contains(r.position, tolerance: 1e-6), bestInside = v.contains(b.result.position, tolerance: 1e-6)
                if inside != bestInside {
                    if inside { best = (r, fromChan, score) }
                    return
                }
            }
            if r.converged != b.result.converged {
                if r.converged { best = (r, fromChan, score) }
                return
            }
            if score < b.score { best = (r, fromChan, score) }
        }
        let centre = problem.volume?.centre ?? problem.anchorCentroid
        let chan = closedForm.solve(problem).flatMap { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite ? $0 : nil }
        if let r = leastSquares.solve(problem, from: chan ?? prediction?.position ?? centre, prediction: prediction, presumedLate: presumedLate) {
            consider(r, fromChan: chan != nil)
            if settled(r, problem, prediction: prediction, cap: cap) { return .success(fix(r, iterations: iterations, fromChan: chan != nil)) }
        }
        var starts: [Vector3] = []
        if let p = prediction?.position { starts.append(p) }
        starts.append(centre)
        if problem.dimension == 3, let b = best { starts.append(Self.mirror(b.result.position, problem)) }
        for start in starts {
            if let r = leastSquares.solve(problem, from: start, prediction: prediction, presumedLate: presumedLate) { consider(r, fromChan: false) }
        }
        guard let chosen = best else { return .failure(.noFit) }
        // Measurements no position explains (χ² many times its quantile even after rejection:
        // a clock not corrected, a wrong anchor position) give no fix rather than a held one.
        let dof = chosen.result.degreesOfFreedom
        if leastSquares.rejectOutliers, dof >= 1, chosen.result.cost > inconsistency * leastSquares.threshold(degreesOfFreedom: dof) {
            return .failure(.inconsistent(chiSquare: chosen.result.cost, degreesOfFreedom: dof, limit: inconsistency * leastSquares.threshold(degreesOfFreedom: dof)))
        }
        if let v = problem.volume, !v.contains(chosen.result.position, tolerance: 1e-6), let held = hold(chosen.result, to: v, problem, presumedLate: presumedLate) {
            iterations += held.iterations
            return .success(fix(held, iterations: iterations, fromChan: chosen.fromChan, held: true))
        }
        return .success(fix(chosen.result, iterations: iterations, fromChan: chosen.fromChan))
    }

    /// ((z − h)/σ_h)² against the problem's `likelyHeight` (3-D only), at most `cap`: a phone is
    /// in a hand, so of two solutions the data cannot tell apart (a near-coplanar geometry's
    /// mirror, a second minimum at 1 degree of freedom) the one at a hand's height is chosen. It
    /// ranks candidates; it never pulls the fix.
    func heightPenalty(_ x: Vector3, _ problem: TDoAProblem, cap: Double) -> Double {
        guard problem.fixedHeight == nil, let h = problem.likelyHeight else { return 0 }
        let d = (x.z - h) / likelyHeightSigma
        return min(cap, d * d)
    }

    /// One fit is enough: converged inside the volume, consistent, nothing newly rejected, at a
    /// hand's height (within 2 σ_h) and inside the prediction's gate.
    private func settled(_ r: TDoALeastSquaresResult, _ problem: TDoAProblem, prediction: TDoAPrediction?, cap: Double) -> Bool {
        guard r.converged, r.rejections.allSatisfy({ $0.reason == .persistentlyLate }) else { return false }
        if let v = problem.volume, !v.contains(r.position, tolerance: 1e-6) { return false }
        if heightPenalty(r.position, problem, cap: cap) > 4 { return false }
        if r.degreesOfFreedom >= 1, r.cost > leastSquares.threshold(degreesOfFreedom: r.degreesOfFreedom) { return false }
        if let prediction, prediction.innovation(r.position, covariance: r.covariance, cap: .infinity) > cap { return false }
        return true
    }

    /// The fit with z held at the bound of `volume` it crossed (2-D at that height) and x, y
    /// clamped into the footprint; nil if it cannot be solved.
    private func hold(_ r: TDoALeastSquaresResult, to volume: TDoAVolume, _ problem: TDoAProblem, presumedLate: [TDoAAnchorID]) -> TDoALeastSquaresResult? {
        var held = problem
        let c = volume.clamped(r.position)
        if problem.fixedHeight == nil, c.z != r.position.z { held.fixedHeight = c.z }
        guard var h = leastSquares.solve(held, from: c, presumedLate: presumedLate) ?? (held.fixedHeight == nil ? nil : leastSquares.fit(held, from: c)) else {
            var f = r
            f.position = c
            return f
        }
        h.position = volume.clamped(h.position)
        if held.fixedHeight != nil, problem.fixedHeight == nil {
            // Held at a bound, z is not known to the 2-D fit's zero variance: keep the free fit's,
            // widened by how far the bound moved it (a tracker must not take the bound as truth).
            let dz = r.position.z - h.position.z
            h.covariance.m22 = r.covariance.m22 + dz * dz
        }
        return h
    }

    private func fix(_ r: TDoALeastSquaresResult, iterations: Int, fromChan: Bool, held: Bool = false) -> TDoAFix {
        TDoAFix(position: r.position, covariance: r.covariance, rejections: r.rejections, delays: r.delays, heldToVolume: held,
                usedMeasurements: r.usedMeasurements, iterations: iterations, cost: r.cost, degreesOfFreedom: r.degreesOfFreedom,
                converged: r.converged, startedFromClosedForm: fromChan, residuals: r.residuals)
    }

    /// The mirror image of x through the anchors' least-squares plane (its normal the scatter
    /// matrix's smallest eigenvector, by inverse iteration).
    static func mirror(_ x: Vector3, _ problem: TDoAProblem) -> Vector3 {
        var anchors: [Vector3] = []
        for g in problem.groups { anchors.append(g.reference); anchors.append(contentsOf: g.anchors) }
        guard anchors.count >= 3 else { return x }
        var c = Vector3.zero
        for a in anchors { c += a }
        c = c * (1 / Double(anchors.count))
        var s = Matrix3.zero
        for a in anchors { s += Matrix3.outer(a - c) }
        let scale = max(s.trace, 1e-9) * 1e-9
        guard let inv = (s + Matrix3.diagonal(scale, scale, scale)).inverse else { return x }
        var n = Vector3(0, 0, 1)
        for _ in 0..<12 {
            let v = inv * n
            let l = v.length
            guard l > 0, l.isFinite else { break }
            n = v * (1 / l)
        }
        return x - n * (2 * (x - c).dot(n))
    }
}
