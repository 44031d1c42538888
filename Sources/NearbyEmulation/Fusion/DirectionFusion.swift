import EmulatorMath
import Foundation

/// Direction from distance: a particle filter that fuses Channel Sounding ranges with the
/// phone's camera-tracking (VIO) poses into the accessory's position, the way iOS's camera
/// assistance turns a ranging-only radio into a direction finder. Each range taken from a
/// different phone position cuts the set of consistent positions (a synthetic aperture); the
/// state is the accessory position in the VIO world frame, so tracking drift shows up as error,
/// as it would on a phone.
///
/// Decisions (numbers configurable where noted):
/// - Process model from the app's motion hint (random walk, m/√s, per axis): `.stationary`
///   0.02 (a fixed point; the jitter only keeps particles diverse), `.moving` 0.6 (a carried
///   tag: walking speed ~0.5 m/s over a 1 s horizon), `.unknown` 0.2 (in between: a slowly
///   repositioned object).
/// - Prior: on the first valid range, particles lie on a shell of that radius (±`rangeSigma`)
///   inside a cone of half-angle `coneHalfAngle` (60°) around the camera axis: with camera
///   assistance the user is coached to point the phone towards the accessory's area.
/// - Likelihood: robust, a Gaussian in the range residual (σ = `rangeSigma`, 0.15 m) mixed with
///   a uniform outlier floor (`outlierProbability` 10 % over `outlierSpan` 10 m), so multipath
///   ranges 1–3 m too long are rejected instead of dragging the estimate.
/// - Recovery: when `reinitializeAfter` (5) ranges in a row fit no particle within 3σ, the cloud
///   is wrong (a bad first range, or a hint that the accessory is still when it moves): restart
///   the prior from the current range.
/// - Systematic resampling when the effective sample size drops below half the particles, then
///   1 cm of roughening jitter to split duplicates.
/// - Output: the weighted mean direction and distance from the phone, exponentially smoothed
///   (`smoothingTime` 0.3 s; iOS smooths too). A direction is reported only when the particles'
///   angular spread is below `maxSpread` (12°) and at least `minUpdates` (10) ranges are fused;
///   the horizontal angle alone when the azimuth spread is below it (iOS likewise reports
///   `horizontalAngle` when the full direction is not yet known).
///
/// Honest limitation: ranges constrain the accessory to a circle around the axis of the phone's
/// motion. A purely horizontal sideways sweep therefore fixes the horizontal angle within a
/// second or two but leaves elevation (and front/back) weakly observable; the camera-cone prior
/// and the vertical bob of a hand-held phone resolve it, slowly: a ±6 cm bob at 10 cm range noise
/// bounds elevation to ~12° (Cramér–Rao) after 6 s, and the filter, assuming 0.15 m, reports
/// the full direction only after ~20 s of sway. A level walk leaves the sign of the elevation
/// ambiguous (a mirror image above the plane of the path: iOS's "above or below").
/// A phone held perfectly still observes no direction at all: the spread stays large and no
/// direction is reported, although the distance is right.
public struct DirectionFusion: Sendable {
    public var rangeSigma = 0.15
    public var outlierProbability = 0.1
    public var outlierSpan = 10.0
    public var coneHalfAngle = 60 * Double.pi / 180
    public var maxSpread = 12 * Double.pi / 180
    public var minUpdates = 10
    public var smoothingTime = 0.3
    public var roughening = 0.01
    public var reinitializeAfter = 5

    public private(set) var motionState = MotionActivityState.unknown
    /// Valid ranges fused since the last (re)initialization.
    public private(set) var rangeUpdates = 0

    private var rng: SeededGenerator
    private var particles: [Vector3]
    private var weights: [Double]
    private var scratch: [Vector3]
    private var initialized = false
    private var lastTime: Double?
    private var smoothed: Vector3?
    private var inconsistentRun = 0

    public init(seed: UInt64, particleCount: Int = 1500) {
        rng = SeededGenerator(seed: seed, stream: 0xF05E)
        let n = max(1, particleCount)
        particles = Array(repeating: .zero, count: n)
        weights = Array(repeating: 1 / Double(n), count: n)
        scratch = particles
    }

    public mutating func setMotionState(_ state: MotionActivityState) { motionState = state }

    /// Random-walk strength of the process model for a motion hint, m/√s per axis.
    public static func processNoise(for state: MotionActivityState) -> Double {
        switch state {
        case .stationary: 0.02
        case .unknown: 0.2
        case .moving: 0.6
        }
    }

    /// The smoothed accessory position estimate (VIO world frame), nil before the first range.
    public var position: Vector3? { smoothed }

    /// Fuses one ranging procedure: `range` in metres (nil when the measurement failed: predict
    /// only), `pose` the believed (VIO) pose when it was measured. Call with increasing times.
    public mutating func update(range: Double?, pose: Pose, time: Double) {
        let dt = lastTime.map { max(0, time - $0) } ?? 0
        lastTime = time
        if initialized { predict(dt) }
        guard let r = range, r.isFinite, r > 0 else {
            if initialized { smooth(pose: pose, dt: dt) }
            return
        }
        guard initialized else { return initialize(range: r, pose: pose) }

        let n = particles.count
        let norm = 1 / (rangeSigma * (2 * Double.pi).squareRoot())
        let floor = outlierProbability / outlierSpan
        var total = 0.0
        var consistent = false
        for i in 0..<n {
            let residual = ((particles[i] - pose.position).length - r) / rangeSigma
            if abs(residual) < 3 { consistent = true }
            weights[i] *= (1 - outlierProbability) * norm * exp(-0.5 * residual * residual) + floor
            total += weights[i]
        }
        inconsistentRun = consistent ? 0 : inconsistentRun + 1
        if inconsistentRun >= reinitializeAfter { return initialize(range: r, pose: pose) }
        var sumSquares = 0.0
        for i in 0..<n {
            weights[i] /= total
            sumSquares += weights[i] * weights[i]
        }
        if 1 / sumSquares < Double(n) / 2 { resample() }
        rangeUpdates += 1
        smooth(pose: pose, dt: dt)
    }

    /// Everything the filter believes, seen from `pose` (a believed pose), whether or not it is
    /// confident; nil before the first range.
    public func estimate(from pose: Pose) -> DirectionEstimate? {
        guard let s = smoothed else { return nil }
        let relative = pose.toPhoneFrame(s)
        let direction = relative.normalized
        // Spreads of the raw cloud around its own mean direction and mean azimuth, from this pose.
        let right = pose.right, forward = pose.forward
        var mean = Vector3.zero
        var sinSum = 0.0, cosSum = 0.0
        for i in particles.indices {
            let d = particles[i] - pose.position
            mean += d.normalized * weights[i]
            let a = atan2(d.dot(right), d.dot(forward))
            sinSum += weights[i] * sin(a)
            cosSum += weights[i] * cos(a)
        }
        mean = mean.normalized
        let meanAzimuth = atan2(sinSum, cosSum)
        var spreadSquared = 0.0, horizontalSquared = 0.0
        for i in particles.indices {
            let d = particles[i] - pose.position
            let u = d.normalized
            let cross = Vector3(u.y * mean.z - u.z * mean.y, u.z * mean.x - u.x * mean.z, u.x * mean.y - u.y * mean.x)
            let angle = atan2(cross.length, u.dot(mean))
            spreadSquared += weights[i] * angle * angle
            let a = atan2(d.dot(right), d.dot(forward)) - meanAzimuth
            let wrapped = atan2(sin(a), cos(a))
            horizontalSquared += weights[i] * wrapped * wrapped
        }
        let spread = spreadSquared.squareRoot(), horizontalSpread = horizontalSquared.squareRoot()
        let enough = rangeUpdates >= minUpdates
        return DirectionEstimate(
            position: s, distance: relative.length, direction: direction,
            azimuth: atan2(direction.x, -direction.z),
            elevation: atan2(direction.y, (direction.x * direction.x + direction.z * direction.z).squareRoot()),
            spread: spread, horizontalSpread: horizontalSpread,
            isConfident: enough && spread < maxSpread, isHorizontalConfident: enough && horizontalSpread < maxSpread)
    }

    /// Above, below, level or either, from where the particles lie relative to the phone's
    /// height: 80 % of the weight on one side decides; both sides holding weight is the mirror
    /// ambiguity of a horizontal sweep.
    public func verticalDirection(from pose: Pose) -> VerticalDirectionEstimate {
        guard smoothed != nil, rangeUpdates >= minUpdates else { return .unknown }
        var above = 0.0, below = 0.0
        for i in particles.indices {
            let dz = particles[i].z - pose.position.z
            if dz > Self.sameLevelTolerance { above += weights[i] } else if dz < -Self.sameLevelTolerance { below += weights[i] }
        }
        let same = 1 - above - below
        if above >= 0.8 { return .above }
        if below >= 0.8 { return .below }
        if same >= 0.8 { return .same }
        if above >= 0.2 && below >= 0.2 && same < 0.6 { return .aboveOrBelow }
        return .unknown
    }

    /// Height difference counted as level with the phone, metres.
    public static let sameLevelTolerance = 0.3

    /// The direction the phone would report at `pose`: the estimate when confident, else nil.
    public func direction(from pose: Pose) -> DirectionEstimate? {
        guard let e = estimate(from: pose), e.isConfident else { return nil }
        return e
    }

    /// The horizontal angle (radians, positive right) the phone would report at `pose`, nil when
    /// not confident. Available sooner than `direction(from:)`: a sideways sweep fixes it.
    public func horizontalAngle(from pose: Pose) -> Double? {
        guard let e = estimate(from: pose), e.isHorizontalConfident else { return nil }
        return e.azimuth
    }

    /// The prior: a shell of radius `range` inside the camera cone, equal weights.
    private mutating func initialize(range: Double, pose: Pose) {
        let forward = pose.forward, right = pose.right, up = pose.up
        let cosMax = cos(coneHalfAngle)
        let n = particles.count
        for i in 0..<n {
            // Uniform on the spherical cap: cos θ uniform in [cos θmax, 1].
            let cosTheta = 1 - rng.uniform() * (1 - cosMax)
            let sinTheta = (1 - cosTheta * cosTheta).squareRoot()
            let phi = rng.phase()
            let axis = forward * cosTheta + (right * cos(phi) + up * sin(phi)) * sinTheta
            let radius = max(0.05, range + rng.gaussian() * rangeSigma)
            particles[i] = pose.position + axis * radius
            weights[i] = 1 / Double(n)
        }
        initialized = true
        rangeUpdates = 1
        inconsistentRun = 0
        smoothed = nil
        smooth(pose: pose, dt: 0)
    }

    private mutating func predict(_ dt: Double) {
        guard dt > 0 else { return }
        let s = DirectionFusion.processNoise(for: motionState) * dt.squareRoot()
        for i in particles.indices {
            particles[i] += Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * s
        }
    }

    /// Systematic resampling into `scratch`, then roughening; the buffers swap, nothing allocates.
    private mutating func resample() {
        let n = particles.count
        let step = 1 / Double(n)
        var u = rng.uniform() * step
        var cumulative = weights[0]
        var j = 0
        for i in 0..<n {
            while u > cumulative && j < n - 1 {
                j += 1
                cumulative += weights[j]
            }
            scratch[i] = particles[j] + Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * roughening
            u += step
        }
        swap(&particles, &scratch)
        for i in 0..<n { weights[i] = step }
    }

    /// Moves the smoothed position towards the cloud's mean direction and distance from `pose`.
    /// Mean direction and mean distance, not the mean point: the mean of a cloud still spread
    /// over a shell lies inside the shell, at the wrong distance.
    private mutating func smooth(pose: Pose, dt: Double) {
        var direction = Vector3.zero
        var distance = 0.0
        for i in particles.indices {
            let d = particles[i] - pose.position
            let length = d.length
            if length > 0 { direction += d * (weights[i] / length) }
            distance += length * weights[i]
        }
        let target = pose.position + direction.normalized * distance
        guard let s = smoothed else { smoothed = target; return }
        let alpha = 1 - exp(-dt / smoothingTime)
        smoothed = s + (target - s) * alpha
    }
}
