import EmulatorMath
import Foundation

/// The phone's visual-inertial odometry (ARKit world tracking): turns the TRUE pose track into
/// the pose the phone BELIEVES. The direction filter only ever sees believed poses, so its
/// errors include tracking drift, as on a real phone.
///
/// Error model (typical of phone VIO, numbers configurable):
/// - position drift ∝ distance travelled: each displacement is scaled into a drift by a small
///   random vector `u` (1σ ≈ `driftPerMetre`, 1 % by default) that itself wanders with the path
///   (Ornstein–Uhlenbeck in distance, correlation length `driftCorrelationLength`), so drift is
///   ~1 % of path length over a few metres and grows more slowly (a random walk) beyond;
/// - heading drift: a random walk in yaw, 0.5°/√min 1σ; later displacements are rotated by it,
///   as a VIO frame slowly turning about gravity would (gravity keeps pitch from drifting);
/// - white noise: 5 mm on position, 0.2° on yaw and pitch.
/// The first call defines the VIO origin: zero error at the first time.
public struct CameraTracking: Sendable {
    public var driftPerMetre = 0.01
    public var driftCorrelationLength = 10.0
    public var yawDriftPerRootMinute = 0.5 * Double.pi / 180
    public var positionNoise = 0.005
    public var angleNoise = 0.2 * Double.pi / 180

    private var rng: SeededGenerator
    private var lastTrue: Pose?
    private var lastTime = 0.0
    /// Believed position before white noise (the integrated, drifting track).
    private var believed = Vector3.zero
    /// Drift per metre travelled, per axis.
    private var driftRate = Vector3.zero
    private var yawError = 0.0

    public init(seed: UInt64) {
        rng = SeededGenerator(seed: seed, stream: 0xCA3E4A)
        let s = driftPerMetre / 3.0.squareRoot()
        driftRate = Vector3(rng.gaussian() * s, rng.gaussian() * s, rng.gaussian() * s)
    }

    /// The believed pose for the true pose `trueP` at `time` (call with increasing times).
    public mutating func pose(trueP: Pose, at time: Double) -> Pose {
        guard let previous = lastTrue else {
            lastTrue = trueP
            lastTime = time
            believed = trueP.position
            return trueP
        }
        let dt = max(0, time - lastTime)
        let step = trueP.position - previous.position
        let distance = step.length
        // The drift rate wanders with distance; the stationary spread is driftPerMetre (3D RMS).
        let rho = exp(-distance / driftCorrelationLength)
        let s = driftPerMetre / 3.0.squareRoot() * (1 - rho * rho).squareRoot()
        driftRate = driftRate * rho + Vector3(rng.gaussian() * s, rng.gaussian() * s, rng.gaussian() * s)
        yawError += rng.gaussian() * yawDriftPerRootMinute * (dt / 60).squareRoot()
        let c = cos(yawError), sn = sin(yawError)
        let turned = Vector3(step.x * c - step.y * sn, step.x * sn + step.y * c, step.z)
        believed += turned + driftRate * distance
        lastTrue = trueP
        lastTime = time
        let noise = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * positionNoise
        return Pose(position: believed + noise,
                    yaw: trueP.yaw + yawError + rng.gaussian() * angleNoise,
                    pitch: trueP.pitch + rng.gaussian() * angleNoise)
    }
}
