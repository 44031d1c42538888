import EmulatorMath
import RadioWorld
/// The truth of a Nearby Interaction emulation: where the phone really is and how it is held
/// (`phone`), and where the accessory really is (`accessory`), over time in seconds. The
/// session sees none of it directly: the radio sees the separation (through the Air), and the
/// phone sees its own pose through the camera's tracking, with drift.
public struct NearbyWorld: Sendable {
    public var phone: PhoneMotion
    public var accessory: AccessoryMotion

    public init(phone: PhoneMotion, accessory: AccessoryMotion) {
        self.phone = phone
        self.accessory = accessory
    }

    /// The true phone-to-accessory distance at `time`, metres.
    public func distance(at time: Double) -> Double {
        (accessory.position(at: time) - phone.pose(at: time).position).length
    }

    /// The true direction to the accessory in the phone frame at `time` (unit vector).
    public func direction(at time: Double) -> Vector3 {
        phone.pose(at: time).toPhoneFrame(accessory.position(at: time)).normalized
    }

    /// The separation as the Air's distance profile, sampled every `step` seconds from world
    /// time `start` to `end`, on a controller clock that starts at `start`.
    public func distanceProfile(from start: Double, to end: Double, step: Double = 0.01) -> AirTrajectory {
        let count = max(1, Int(((end - start) / step).rounded(.up))) + 1
        let waypoints = (0..<count).map { i -> AirTrajectory.Waypoint in
            let t = Double(i) * step
            return AirTrajectory.Waypoint(time: UInt64((t * 1e6).rounded()), distance: distance(at: start + t))
        }
        return AirTrajectory(waypoints: waypoints)
    }
}
