import EmulatorMath
import Foundation

/// Where the phone is and which way its back camera looks, in the world frame: position, yaw
/// (heading of the camera axis, radians counterclockwise from north, +y) and pitch (up positive).
/// Roll is left out: a phone held to look for something is held upright.
public struct Pose: Sendable, Equatable {
    public var position: Vector3
    public var yaw: Double
    public var pitch: Double

    public init(position: Vector3, yaw: Double = 0, pitch: Double = 0) {
        self.position = position
        self.yaw = yaw
        self.pitch = pitch
    }

    /// The camera's forward axis in the world frame.
    public var forward: Vector3 { Vector3(-sin(yaw) * cos(pitch), cos(yaw) * cos(pitch), sin(pitch)) }
    /// The phone's right axis (x) in the world frame.
    public var right: Vector3 { Vector3(cos(yaw), sin(yaw), 0) }
    /// The phone's up axis (y) in the world frame.
    public var up: Vector3 { Vector3(sin(yaw) * sin(pitch), -cos(yaw) * sin(pitch), cos(pitch)) }

    /// A world point in the phone frame (x right, y up, −z forward).
    public func toPhoneFrame(_ world: Vector3) -> Vector3 {
        let d = world - position
        return Vector3(d.dot(right), d.dot(up), -d.dot(forward))
    }
}
