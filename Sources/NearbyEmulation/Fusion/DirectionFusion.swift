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
/// - Move (resample-move, Gilks & Berzuini 2001), for a still accessory (`.stationary`):
///   with a still accessory and ranges of a few centimetres the posterior soon becomes far
///   narrower than the cloud was when it formed, and a cloud that formed around the early,
///   short-aperture ranges' wrong azimuth cannot reach the right one: resampling only copies
///   particles, and a still accessory's process noise is too small to walk them there (this
///   was the sway runs that settled 12–14° off and stayed). Every `moveEvery` (10) ranges the
///   cloud is resampled and each particle offered one Metropolis–Hastings independence move
///   to a point drawn from a Student-t (ν 3) on the Laplace approximation at the batch fit of
///   the last `moveWindow` (200) ranges (`RangeBatchFit`, started from the filter's estimate,
///   its covariance inflated 1.5² and capped at a third of the distance per axis), accepted with
///   the ratio of the filter's own likelihood over those ranges times the proposal's, and
///   never out of the prior's cone. The moves leave the posterior as it is where the cloud
///   already holds it.
/// - Carrier phase (still accessory): with each range may come a `PhaseObservation`, the
///   distance's change since a procedure about half a second earlier, read from the tones'
///   phase (`PhaseChange`): modulo 6.1 cm, but to the millimetres the camera's pose noise
///   allows (`phaseDistanceSigma`, 8 mm: two poses' 5 mm each, along the line of sight) where
///   a range is good to a decimetre. Each particle predicts the change from where it lies; the
///   likelihood is a von Mises density in the wrapped phase residual (κ = 1/(k·σ)²) over a
///   `phaseOutlierProbability` (5 %) floor, used only over baselines of 5 cm or more
///   (`minimumPhaseBaseline`: a still phone's are its pose noise). Over a sway's 0.2–0.3 m
///   baselines this pins the direction to about half a degree where the ranges alone leave
///   4–5°; the ranges and the move step keep the cloud off the aliases (one every 6.1 cm of
///   change). The session passes none for a moving accessory, whose change mixes both
///   devices' motion.
/// - Output: the weighted mean direction and distance from the phone, exponentially smoothed
///   (`smoothingTime` 0.3 s; iOS smooths too) while the smoothed point stays within two RMS
///   spreads of the cloud (a converging cloud would leave it behind). A direction is reported only when the particles'
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
    /// Ranges between two move steps (still accessory only); 0: no moves.
    public var moveEvery = 10
    /// The most recent ranges a move step's likelihood and batch fit use.
    public var moveWindow = 200
    /// The 1σ error of a carrier-phase change in metres of distance: the camera's pose noise at
    /// the two procedures along the line of sight, far above the radio's (see the type's comment).
    public var phaseDistanceSigma = 0.008
    /// The weight of a carrier-phase change that fits nothing (a cycle slip, a reflection that moved).
    public var phaseOutlierProbability = 0.05
    /// The least the phone must have moved (as it believed) between a phase change's two
    /// procedures for the change to be used: below it the baseline is mostly the camera's pose
    /// noise, and a still phone's jitter would otherwise pick a confident, wrong direction
    /// (`--phone still` read 50° off with it).
    public var minimumPhaseBaseline = 0.05

    /// The distance's change between two procedures read from their tones' carrier phase
    /// (`PhaseChange`): `phase` = −`wavenumber`·(|a − p| − |a − `from`|) modulo 2π, for the
    /// accessory at a, p where the phone was for the later procedure and `from` for the earlier.
    public struct PhaseObservation: Sendable, Equatable {
        public var phase: Double
        public var wavenumber: Double
        /// Where the phone (as it believed) was for the earlier procedure.
        public var from: Vector3
        public init(phase: Double, wavenumber: Double, from: Vector3) {
            self.phase = phase
            self.wavenumber = wavenumber
            self.from = from
        }
    }

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
    /// The fused ranges since the last (re)initialization, the last `moveWindow` of them, and
    /// where the phone (as it believed) was for each: rings written at `historyNext`.
    private var historyPositions: [Vector3] = []
    private var historyRanges: [Double] = []
    private var historyPhases: [PhaseObservation?] = []
    private var historyNext = 0
    /// The prior's cone (apex and axis, from the pose of the first range): the move step's
    /// target is the posterior, prior included, so no move leaves the cone.
    private var priorApex = Vector3.zero
    private var priorAxis = Vector3(0, 1, 0)

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
    /// only), `pose` the believed (VIO) pose when it was measured, `phase` the carrier phase's
    /// change since an earlier procedure (still accessory only). Call with increasing times.
    public mutating func update(range: Double?, pose: Pose, time: Double, phase: PhaseObservation? = nil) {
        let dt = lastTime.map { max(0, time - $0) } ?? 0
        lastTime = time
        if initialized { predict(dt) }
        guard let r = range, r.isFinite, r > 0 else {
            if initialized { smooth(pose: pose, dt: dt) }
            return
        }
        guard initialized else { return initialize(range: r, pose: pose) }
        let phase = phase.flatMap { ($0.from - pose.position).length >= minimumPhaseBaseline ? $0 : nil }

        let n = particles.count
        let norm = 1 / (rangeSigma * (2 * Double.pi).squareRoot())
        let floor = outlierProbability / outlierSpan
        var total = 0.0
        var consistent = false
        for i in 0..<n {
            let distance = (particles[i] - pose.position).length
            let residual = (distance - r) / rangeSigma
            if abs(residual) < 3 { consistent = true }
            weights[i] *= (1 - outlierProbability) * norm * exp(-0.5 * residual * residual) + floor
            if let phase { weights[i] *= phaseLikelihood(phase, distance: distance, particle: particles[i]) }
            total += weights[i]
        }
        inconsistentRun = consistent ? 0 : inconsistentRun + 1
        if inconsistentRun >= reinitializeAfter { return initialize(range: r, pose: pose) }
        var sumSquares = 0.0
        for i in 0..<n {
            weights[i] /= total
            sumSquares += weights[i] * weights[i]
        }
        rangeUpdates += 1
        remember(position: pose.position, range: r, phase: phase)
        let moveDue = motionState == .stationary && moveEvery > 0 && rangeUpdates >= minUpdates && rangeUpdates % moveEvery == 0
        if moveDue {
            resample()
            move(from: pose)
        } else if 1 / sumSquares < Double(n) / 2 {
            resample()
        }
        smooth(pose: pose, dt: dt)
    }

    private mutating func remember(position: Vector3, range: Double, phase: PhaseObservation?) {
        let w = max(4, moveWindow)
        if historyPositions.count < w {
            historyPositions.append(position)
            historyRanges.append(range)
            historyPhases.append(phase)
        } else {
            historyPositions[historyNext] = position
            historyRanges[historyNext] = range
            historyPhases[historyNext] = phase
        }
        historyNext = (historyNext + 1) % w
    }

    /// The likelihood of a carrier-phase change for an accessory at `particle`, `distance` from
    /// the phone: von Mises in the wrapped residual, peak 1, over the outlier floor.
    @inline(__always)
    private func phaseLikelihood(_ phase: PhaseObservation, distance: Double, particle: Vector3) -> Double {
        let spread = phase.wavenumber * phaseDistanceSigma
        let change = distance - (particle - phase.from).length
        let residual = phase.phase + phase.wavenumber * change
        return (1 - phaseOutlierProbability) * exp((cos(residual) - 1) / (spread * spread)) + phaseOutlierProbability
    }

    /// The log-likelihood of the remembered ranges and carrier-phase changes for an accessory at
    /// `x`, with the same robust models as the weights' update.
    private func logLikelihood(_ x: Vector3) -> Double {
        let norm = 1 / (rangeSigma * (2 * Double.pi).squareRoot())
        let floor = outlierProbability / outlierSpan
        var sum = 0.0
        for i in historyPositions.indices {
            let distance = (x - historyPositions[i]).length
            let residual = (distance - historyRanges[i]) / rangeSigma
            sum += log((1 - outlierProbability) * norm * exp(-0.5 * residual * residual) + floor)
            if let phase = historyPhases[i] { sum += log(phaseLikelihood(phase, distance: distance, particle: x)) }
        }
        return sum
    }

    /// One Metropolis–Hastings independence move per particle (equal weights: just resampled),
    /// proposals from the batch fit's Laplace approximation (see the type's comment).
    private mutating func move(from pose: Pose) {
        guard let start = smoothed ?? particles.first,
              let fit = RangeBatchFit(positions: historyPositions, ranges: historyRanges, sigma: rangeSigma, start: start) else { return }
        // Covariance (JᵀJ)⁻¹ of the normalised residuals, inflated 1.5² and with each axis' spread
        // capped at a third of the distance (the weak direction of a sideways sweep: a ridge on
        // the information's diagonal).
        let cap = max(0.05, (fit.position - pose.position).length / 3)
        let ridge = 1 / (cap * cap)
        guard let covariance = (fit.information * (1 / 2.25) + Matrix3.diagonal(ridge, ridge, ridge)).inverse?.symmetrized,
              let lower = RangeBatchFit.cholesky(covariance), let precision = covariance.inverse else { return }
        // A multivariate Student-t (ν = 3) on that scale, not a Gaussian: an independence sampler
        // cannot leave a state in its proposal's tail (there q(x) is negligible and the ratio
        // π(x′)·q(x)/(π(x)·q(x′)) with it), and a cloud that settled on a wrong carrier-phase
        // alias, metres from the fit in the Laplace metric, sits in a Gaussian's tail for good.
        let dof = 3.0
        func logProposal(_ x: Vector3) -> Double { -0.5 * (dof + 3) * log(1 + precision.quadraticForm(x - fit.position) / dof) }
        let cosMax = cos(coneHalfAngle)
        for i in particles.indices {
            let z = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian())
            var chiSquare = 0.0
            for _ in 0..<Int(dof) { let g = rng.gaussian(); chiSquare += g * g }
            let proposal = fit.position + lower * z * (dof / max(chiSquare, 1e-12)).squareRoot()
            guard (proposal - priorApex).normalized.dot(priorAxis) >= cosMax else { continue }
            let ratio = logLikelihood(proposal) - logLikelihood(particles[i]) + logProposal(particles[i]) - logProposal(proposal)
            if ratio >= 0 || log(max(rng.uniform(), 1e-300)) < ratio { particles[i] = proposal }
        }
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
        historyPositions.removeAll(keepingCapacity: true)
        historyRanges.removeAll(keepingCapacity: true)
        historyPhases.removeAll(keepingCapacity: true)
        historyNext = 0
        remember(position: pose.position, range: range, phase: nil)
        priorApex = pose.position
        priorAxis = pose.forward
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
        // Smoothing holds the output steady inside the posterior; once it lags outside (the cloud
        // converging faster than 0.3 s, as carrier phase makes it), it starts again from the mean.
        var spread = 0.0
        for i in particles.indices { let d = particles[i] - target; spread += weights[i] * d.dot(d) }
        let lag = target - s
        if lag.dot(lag) > 4 * spread { smoothed = target; return }
        let alpha = 1 - exp(-dt / smoothingTime)
        smoothed = s + (target - s) * alpha
    }
}
