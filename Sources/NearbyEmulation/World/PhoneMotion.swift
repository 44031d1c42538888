import EmulatorMath
import Foundation

/// The phone's TRUE pose over time: the ground truth that camera tracking (`CameraTracking`)
/// drifts away from and that the simulated radio measures ranges from.
///
/// A value (no closures), so scenarios compare and print. The camera always looks at a fixed
/// look point: a user searching for an accessory keeps the phone aimed at where they think it is.
public indirect enum PhoneMotion: Sendable, Equatable {
    /// No motion at all: direction is unobservable from ranges alone.
    case still(Pose)
    /// Hand-held sway: standing at `center`, the user sweeps the phone sideways along its right
    /// axis (±`amplitude`, period `period`) and bobs it vertically (±`bob`, period `bobPeriod`),
    /// a Lissajous figure. Both terms are sines starting at zero, so the sway starts at `center`.
    case sway(center: Vector3, lookAt: Vector3, amplitude: Double, bob: Double, period: Double, bobPeriod: Double)
    /// Walking along straight segments through `waypoints` at `speed` (m/s), with a vertical
    /// walking bob (±`bob` at 1.8 Hz, faded in and out over the first and last half second).
    /// Before the start and after the end the phone rests at the first / last waypoint.
    case walk(waypoints: [Vector3], speed: Double, lookAt: Vector3, bob: Double)
    /// `first` until `switchTime`, then `next` with its own clock starting at zero.
    case then(PhoneMotion, switchTime: Double, next: PhoneMotion)

    /// Steps per second of a relaxed walk: the frequency of the walking bob.
    public static let stepFrequency = 1.8

    /// A hand-held sway with the defaults of the brief: 0.5 m peak to peak sideways, ±6 cm bob,
    /// periods 3 s and 2 s (ratio 3:2, so the figure closes every 6 s and both terms are back at
    /// zero after 3 s, where a following segment can start without a jump).
    public static func handHeldSway(at center: Vector3, lookingAt lookAt: Vector3, amplitude: Double = 0.25,
                                    bob: Double = 0.15, period: Double = 3, bobPeriod: Double = 2) -> PhoneMotion {
        .sway(center: center, lookAt: lookAt, amplitude: amplitude, bob: bob, period: period, bobPeriod: bobPeriod)
    }

    /// A walk through `waypoints` at `speed` with a ±3 cm walking bob.
    public static func walk(through waypoints: [Vector3], speed: Double = 0.6, lookingAt lookAt: Vector3,
                            bob: Double = 0.03) -> PhoneMotion {
        .walk(waypoints: waypoints, speed: speed, lookAt: lookAt, bob: bob)
    }

    /// The default scenario (~14 s): the user starts `distance` m south of the accessory with the
    /// phone at `phoneHeight`, sways it for 3 s, walks an `arcDegrees` arc counterclockwise around
    /// the accessory at `speed`, then sways again for 3 s. The user does not know where the
    /// accessory is, so the camera aims at a point `aimOffsetDegrees` to the left of it (as seen
    /// from the start) at eye height, not at the accessory itself.
    public static func defaultWalk(around accessory: Vector3, distance: Double = 3, phoneHeight: Double = 1.3,
                                   eyeHeight: Double = 1.6, aimOffsetDegrees: Double = 12, arcDegrees: Double = 90,
                                   speed: Double = 0.6) -> PhoneMotion {
        let start = Vector3(accessory.x, accessory.y - distance, phoneHeight)
        let aim = aimOffsetDegrees * Double.pi / 180
        // The start-to-accessory bearing (north) turned left by the aim offset.
        let lookAt = Vector3(start.x - distance * sin(aim), start.y + distance * cos(aim), eyeHeight)
        let steps = max(1, Int((arcDegrees / 5).rounded(.up)))
        let waypoints = (0...steps).map { i -> Vector3 in
            let theta = arcDegrees * Double.pi / 180 * Double(i) / Double(steps)
            return Vector3(accessory.x + distance * sin(theta), accessory.y - distance * cos(theta), phoneHeight)
        }
        let walk = PhoneMotion.walk(through: waypoints, speed: speed, lookingAt: lookAt)
        let sway = 3.0
        return .then(.handHeldSway(at: start, lookingAt: lookAt), switchTime: sway,
                     next: .then(walk, switchTime: walk.walkDuration,
                                 next: .handHeldSway(at: waypoints[waypoints.count - 1], lookingAt: lookAt)))
    }

    /// How long a `.walk` takes (zero for the other cases).
    public var walkDuration: Double {
        guard case let .walk(waypoints, speed, _, _) = self, speed > 0 else { return 0 }
        return PhoneMotion.pathLength(waypoints) / speed
    }

    /// The true pose at `time` seconds.
    public func pose(at time: Double) -> Pose {
        switch self {
        case let .still(pose):
            return pose
        case let .sway(center, lookAt, amplitude, bob, period, bobPeriod):
            let right = PhoneMotion.looking(from: center, at: lookAt).right
            let side = amplitude * sin(2 * Double.pi * time / period)
            let lift = bob * sin(2 * Double.pi * time / bobPeriod)
            return PhoneMotion.looking(from: center + right * side + Vector3(0, 0, lift), at: lookAt)
        case let .walk(waypoints, speed, lookAt, bob):
            let total = walkDuration
            let t = min(max(time, 0), total)
            var remaining = t * speed
            var position = waypoints.last ?? .zero
            for i in 0..<max(0, waypoints.count - 1) {
                let leg = (waypoints[i + 1] - waypoints[i]).length
                if remaining <= leg {
                    position = leg > 0 ? waypoints[i] + (waypoints[i + 1] - waypoints[i]) * (remaining / leg) : waypoints[i]
                    break
                }
                remaining -= leg
            }
            // Fading the bob in and out keeps the path continuous where the walk starts and stops.
            let fade = max(0, min(1, t / 0.5, (total - t) / 0.5))
            let lift = bob * fade * sin(2 * Double.pi * PhoneMotion.stepFrequency * t)
            return PhoneMotion.looking(from: position + Vector3(0, 0, lift), at: lookAt)
        case let .then(first, switchTime, next):
            return time < switchTime ? first.pose(at: time) : next.pose(at: time - switchTime)
        }
    }

    /// A pose at `position` whose camera looks at `target`.
    public static func looking(from position: Vector3, at target: Vector3) -> Pose {
        let d = target - position
        return Pose(position: position, yaw: atan2(-d.x, d.y), pitch: atan2(d.z, (d.x * d.x + d.y * d.y).squareRoot()))
    }

    static func pathLength(_ points: [Vector3]) -> Double {
        guard points.count > 1 else { return 0 }
        return (1..<points.count).reduce(0) { $0 + (points[$1] - points[$1 - 1]).length }
    }
}
