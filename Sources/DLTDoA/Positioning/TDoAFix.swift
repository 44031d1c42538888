import EmulatorMath
/// One position fix from `TDoASolver`.
public struct TDoAFix: Sendable, Equatable {
    /// Metres (z is the fixed height in a 2D solve).
    public var position: Vector3
    /// (Jᵀ W J)⁻¹ at the fix, m²; in 2D the z row and column are zero.
    public var covariance: Matrix3
    /// Anchors rejected as NLOS / outliers, in the order they were rejected.
    public var rejectedAnchors: [TDoAAnchorID]
    /// Independent range differences used in the final fit (Σ over groups of anchors − 1).
    public var usedMeasurements: Int
    /// LM iterations, all fits of the solve together.
    public var iterations: Int
    /// Σ normalized squared residuals of the final fit (chi-square with `degreesOfFreedom`).
    public var cost: Double
    /// usedMeasurements − dimension.
    public var degreesOfFreedom: Int
    /// The final fit converged.
    public var converged: Bool
    /// Chan–Ho's closed form gave the start point.
    public var startedFromClosedForm: Bool
    /// d_i − d_ref − r_i at `position`, metres, per group and anchor in the problem's order,
    /// rejected anchors included.
    public var residuals: [[Double]]

    public init(position: Vector3, covariance: Matrix3, rejectedAnchors: [TDoAAnchorID], usedMeasurements: Int, iterations: Int,
                cost: Double, degreesOfFreedom: Int, converged: Bool, startedFromClosedForm: Bool, residuals: [[Double]] = []) {
        self.position = position
        self.covariance = covariance
        self.rejectedAnchors = rejectedAnchors
        self.usedMeasurements = usedMeasurements
        self.iterations = iterations
        self.cost = cost
        self.degreesOfFreedom = degreesOfFreedom
        self.converged = converged
        self.startedFromClosedForm = startedFromClosedForm
        self.residuals = residuals
    }

    /// √tr(covariance): the expected RMS position error, metres.
    public var rmsError: Double { covariance.trace.squareRoot() }
}
