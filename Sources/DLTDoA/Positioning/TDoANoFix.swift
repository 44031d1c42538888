/// Why an epoch gave no fix: a receiver says so rather than answer with a confident wrong one.
public enum TDoANoFix: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer independent differences than unknowns (anchors lost or left out).
    case tooFewDifferences(have: Int, need: Int)
    /// No start converged to a position inside the region a fit may lie in.
    case noFit
    /// The best fit's χ² is many times its quantile even after rejection: no position explains
    /// the measurements (a clock not corrected, a wrong anchor position, several NLOS anchors).
    case inconsistent(chiSquare: Double, degreesOfFreedom: Int, limit: Double)

    public var isInconsistent: Bool {
        if case .inconsistent = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case let .tooFewDifferences(have, need): "\(have) independent differences, \(need) needed"
        case .noFit: "no fit converged inside the deployment"
        case let .inconsistent(chi2, dof, limit):
            "no position explains the measurements (χ² \(Int(chi2.rounded())) with \(dof) degrees of freedom, limit \(Int(limit.rounded())))"
        }
    }
}
