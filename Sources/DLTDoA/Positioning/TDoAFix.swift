import EmulatorMath
/// One position fix from `TDoASolver`.
public struct TDoAFix: Sendable, Equatable {
    /// Metres (z is the fixed height in a 2D solve).
    public var position: Vector3
    /// (Jᵀ W J)⁻¹ at the fix, m²; in 2D the z row and column are zero.
    public var covariance: Matrix3
    /// Anchors left out as NLOS, in order, and why.
    public var rejections: [TDoARejection]
    /// Every anchor's delay at the fix: the per-epoch NLOS evidence.
    public var delays: [TDoAAnchorDelay]
    /// The best fit lay outside the problem's volume, so this one was held to it (its boundary).
    public var heldToVolume: Bool
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

    public init(position: Vector3, covariance: Matrix3, rejections: [TDoARejection], delays: [TDoAAnchorDelay] = [], heldToVolume: Bool = false,
                usedMeasurements: Int, iterations: Int, cost: Double, degreesOfFreedom: Int, converged: Bool, startedFromClosedForm: Bool,
                residuals: [[Double]] = []) {
        self.position = position
        self.covariance = covariance
        self.rejections = rejections
        self.delays = delays
        self.heldToVolume = heldToVolume
        self.usedMeasurements = usedMeasurements
        self.iterations = iterations
        self.cost = cost
        self.degreesOfFreedom = degreesOfFreedom
        self.converged = converged
        self.startedFromClosedForm = startedFromClosedForm
        self.residuals = residuals
    }

    /// The anchors left out, in order.
    public var rejectedAnchors: [TDoAAnchorID] { rejections.map(\.anchor) }

    /// √tr(covariance): the expected RMS position error, metres.
    public var rmsError: Double { covariance.trace.squareRoot() }
}
