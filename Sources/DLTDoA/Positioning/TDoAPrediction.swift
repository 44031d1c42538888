import EmulatorMath
/// Where a tracker expects the receiver at an epoch: the solver uses it to choose between
/// solutions the epoch alone cannot tell apart (two local minima, two anchor subsets), never
/// to pull the fix itself.
public struct TDoAPrediction: Sendable, Equatable {
    public var position: Vector3
    /// Its covariance, m².
    public var covariance: Matrix3

    public init(position: Vector3, covariance: Matrix3) {
        self.position = position
        self.covariance = covariance
    }

    /// (x − p)ᵀ (P + C)⁻¹ (x − p) for a fix x with covariance C, at most `cap` (a prediction far
    /// off, after a track was lost, then weighs every candidate alike); `cap` also when singular.
    public func innovation(_ x: Vector3, covariance c: Matrix3, cap: Double) -> Double {
        let s = covariance.symmetrized + c.symmetrized + Matrix3.diagonal(1e-6, 1e-6, 1e-6)
        guard let inv = s.inverse else { return cap }
        return min(cap, inv.quadraticForm(x - position))
    }
}
