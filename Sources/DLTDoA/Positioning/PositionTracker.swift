import EmulatorMath
/// A constant-velocity Kalman filter on position fixes (state x, y, z, vx, vy, vz), for a
/// walking receiver. Process noise: piecewise-constant random acceleration of standard
/// deviation `accelerationNoise` per axis (Bar-Shalom's discrete white-noise acceleration:
/// Q = σ_a²[[dt⁴/4, dt³/2], [dt³/2, dt²]] ⊗ I₃). Each fix comes with its covariance (a
/// `TDoAFix.covariance`); its innovation y = fix − predicted position is gated by
/// yᵀ(P_pp + R)⁻¹y against the χ²(3) quantile at `gateProbability` (16.27 at 99.9 %), and
/// after `resetAfterRejections` rejections in a row the filter restarts at the new fix (the
/// receiver really moved, or the track was wrong). Times are the caller's, in seconds.
public struct PositionTracker: Sendable {
    /// σ of the random acceleration, m/s² per axis (≈ 1 for a walking person).
    public var accelerationNoise: Double
    public let gateProbability: Double
    /// The gate on yᵀS⁻¹y.
    public let gateThreshold: Double
    public var resetAfterRejections: Int
    /// σ of each velocity component when a track starts, m/s.
    public var initialVelocitySigma: Double
    /// Added to the diagonal of each fix's covariance (m²): keeps S invertible for 2D fixes
    /// whose z variance is zero.
    public var covarianceFloor: Double

    public private(set) var position: Vector3?
    public private(set) var velocity = Vector3.zero
    /// Covariance blocks: position, position–velocity, velocity.
    public private(set) var covariancePP = Matrix3.zero
    public private(set) var covariancePV = Matrix3.zero
    public private(set) var covarianceVV = Matrix3.zero
    public private(set) var time: Double = 0
    public private(set) var consecutiveRejections = 0

    public init(accelerationNoise: Double = 1.0, gateProbability: Double = 0.999, resetAfterRejections: Int = 3,
                initialVelocitySigma: Double = 1.5, covarianceFloor: Double = 1e-6) {
        self.accelerationNoise = accelerationNoise
        self.gateProbability = gateProbability
        gateThreshold = ChiSquare.quantile(gateProbability, degreesOfFreedom: 3)
        self.resetAfterRejections = resetAfterRejections
        self.initialVelocitySigma = initialVelocitySigma
        self.covarianceFloor = covarianceFloor
    }

    /// Forget the track.
    public mutating func reset() {
        position = nil
        velocity = .zero
        consecutiveRejections = 0
    }

    /// The predicted position at `time` (no state change); nil before the first fix.
    public func predictedPosition(at t: Double) -> Vector3? {
        position.map { $0 + velocity * max(0, t - time) }
    }

    /// What the solver may use at `time`: the predicted position and its covariance; nil
    /// before the first fix.
    public func prediction(at t: Double) -> TDoAPrediction? {
        guard position != nil else { return nil }
        var ahead = self
        ahead.predict(to: t)
        return TDoAPrediction(position: ahead.position!, covariance: ahead.covariancePP)
    }

    /// Feed one fix at time `t` (seconds, non-decreasing).
    @discardableResult
    public mutating func update(fix: Vector3, covariance: Matrix3, at t: Double) -> PositionTrackerUpdate {
        let r = covariance.symmetrized + Matrix3.diagonal(covarianceFloor, covarianceFloor, covarianceFloor)
        guard position != nil else {
            start(at: fix, covariance: r, time: t)
            return PositionTrackerUpdate(position: fix, velocity: .zero, outcome: .initialized, mahalanobisSquared: 0)
        }
        predict(to: t)
        let p = position!
        let y = fix - p
        let s = covariancePP + r
        guard let sInv = s.inverse else {
            start(at: fix, covariance: r, time: t)
            return PositionTrackerUpdate(position: fix, velocity: .zero, outcome: .reset, mahalanobisSquared: .infinity)
        }
        let d2 = sInv.quadraticForm(y)
        if d2 > gateThreshold {
            consecutiveRejections += 1
            if consecutiveRejections >= resetAfterRejections {
                start(at: fix, covariance: r, time: t)
                return PositionTrackerUpdate(position: fix, velocity: .zero, outcome: .reset, mahalanobisSquared: d2)
            }
            return PositionTrackerUpdate(position: p, velocity: velocity, outcome: .rejected, mahalanobisSquared: d2)
        }
        consecutiveRejections = 0
        // K = [P_pp; P_vp] S⁻¹.
        let pvp = covariancePV.transposed
        let kp = covariancePP * sInv
        let kv = pvp * sInv
        position = p + kp * y
        velocity = velocity + kv * y
        let ikp = Matrix3.identity - kp
        let newPP = (ikp * covariancePP).symmetrized
        let newPV = ikp * covariancePV
        let newVV = (covarianceVV - kv * covariancePV).symmetrized
        covariancePP = newPP
        covariancePV = newPV
        covarianceVV = newVV
        return PositionTrackerUpdate(position: position!, velocity: velocity, outcome: .accepted, mahalanobisSquared: d2)
    }

    private mutating func start(at fix: Vector3, covariance r: Matrix3, time t: Double) {
        position = fix
        velocity = .zero
        covariancePP = r
        covariancePV = .zero
        let v2 = initialVelocitySigma * initialVelocitySigma
        covarianceVV = Matrix3.diagonal(v2, v2, v2)
        time = t
        consecutiveRejections = 0
    }

    private mutating func predict(to t: Double) {
        let dt = max(0, t - time)
        time = max(time, t)
        guard dt > 0, let p = position else { return }
        position = p + velocity * dt
        let q = accelerationNoise * accelerationNoise
        let qpp = q * dt * dt * dt * dt / 4, qpv = q * dt * dt * dt / 2, qvv = q * dt * dt
        let pvT = covariancePV.transposed
        covariancePP = (covariancePP + (covariancePV + pvT) * dt + covarianceVV * (dt * dt)).symmetrized + Matrix3.diagonal(qpp, qpp, qpp)
        covariancePV = covariancePV + covarianceVV * dt + Matrix3.diagonal(qpv, qpv, qpv)
        covarianceVV = covarianceVV + Matrix3.diagonal(qvv, qvv, qvv)
    }
}
