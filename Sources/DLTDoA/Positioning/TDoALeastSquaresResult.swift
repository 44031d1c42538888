import EmulatorMath
/// The outcome of `TDoALeastSquares`.
public struct TDoALeastSquaresResult: Sendable, Equatable {
    public var position: Vector3
    /// (Jᵀ W J)⁻¹ at `position`, m²; in 2D the z row and column are zero.
    public var covariance: Matrix3
    /// d_i − d_ref − r_i at `position`, metres, per group and anchor in the problem's order,
    /// rejected anchors included (an NLOS anchor shows its bias here, with the sign flipped
    /// for every anchor of a group whose reference is NLOS).
    public var residuals: [[Double]]
    /// fᵀ W f of the final fit over the used anchors: chi-square with `degreesOfFreedom` under
    /// the noise model.
    public var cost: Double
    public var degreesOfFreedom: Int
    /// Independent range differences used in the final fit.
    public var usedMeasurements: Int
    /// LM iterations over all fits (the leave-one-out refits included).
    public var iterations: Int
    public var converged: Bool
    /// Anchors left out, in order, and why.
    public var rejections: [TDoARejection]
    /// Every anchor's delay at the fix (the NLOS evidence).
    public var delays: [TDoAAnchorDelay]

    /// The anchors left out, in order.
    public var rejected: [TDoAAnchorID] { rejections.map(\.anchor) }

    public init(position: Vector3, covariance: Matrix3, residuals: [[Double]], cost: Double, degreesOfFreedom: Int,
                usedMeasurements: Int, iterations: Int, converged: Bool, rejections: [TDoARejection], delays: [TDoAAnchorDelay] = []) {
        self.position = position
        self.covariance = covariance
        self.residuals = residuals
        self.cost = cost
        self.degreesOfFreedom = degreesOfFreedom
        self.usedMeasurements = usedMeasurements
        self.iterations = iterations
        self.converged = converged
        self.rejections = rejections
        self.delays = delays
    }
}
