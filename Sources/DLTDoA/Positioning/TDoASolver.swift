import EmulatorMath
/// The receiver's position solver: Chan–Ho's closed form on the largest group when it can,
/// else the previous fix, else the anchors' centroid, as the start of a Levenberg–Marquardt
/// fit on all groups with NLOS / outlier rejection (`TDoALeastSquares`). If that fit fails or
/// does not converge, the other start points are tried and the lowest-cost fit kept.
/// A pure function of its inputs (deterministic, no clock, no state).
public struct TDoASolver: Sendable {
    public var closedForm: ChanHoSolver
    public var leastSquares: TDoALeastSquares

    public init(closedForm: ChanHoSolver = ChanHoSolver(), leastSquares: TDoALeastSquares = TDoALeastSquares()) {
        self.closedForm = closedForm
        self.leastSquares = leastSquares
    }

    /// A fix, or nil when the problem has fewer independent differences than unknowns or no fit
    /// succeeds.
    public func solve(_ problem: TDoAProblem, previous: Vector3? = nil) -> TDoAFix? {
        guard problem.timingSigma > 0, problem.measurementCount >= problem.dimension else { return nil }
        var best: TDoALeastSquaresResult?
        var fromChan = false
        var iterations = 0
        if let chan = closedForm.solve(problem), chan.x.isFinite, chan.y.isFinite, chan.z.isFinite,
           let r = leastSquares.solve(problem, from: chan) {
            best = r
            fromChan = true
            iterations += r.iterations
        }
        if best == nil || !best!.converged {
            for start in [previous, problem.anchorCentroid].compactMap({ $0 }) {
                guard let r = leastSquares.solve(problem, from: start) else { continue }
                iterations += r.iterations
                if best == nil || (r.converged && !best!.converged) || (r.converged == best!.converged && r.cost < best!.cost) {
                    best = r
                    fromChan = false
                }
                if r.converged { break }
            }
        }
        guard let r = best else { return nil }
        return TDoAFix(position: r.position, covariance: r.covariance, rejectedAnchors: r.rejected, usedMeasurements: r.usedMeasurements,
                       iterations: iterations, cost: r.cost, degreesOfFreedom: r.degreesOfFreedom, converged: r.converged,
                       startedFromClosedForm: fromChan, residuals: r.residuals)
    }
}
