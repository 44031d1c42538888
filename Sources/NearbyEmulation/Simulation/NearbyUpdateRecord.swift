import EmulatorMath
import Foundation

/// One update an app received in an emulation run, next to the truth at that moment.
public struct NearbyUpdateRecord: Sendable, Equatable {
    public var object: NearbyObject
    /// The true distance, metres.
    public var trueDistance: Double
    /// The true direction in the true phone frame (unit vector).
    public var trueDirection: Vector3
    /// The true phone pose and accessory position (world frame).
    public var phonePose: Pose
    public var accessoryPosition: Vector3
    /// The raw distance of the procedure before smoothing (nil: the measurement failed).
    public var rawDistance: Double?
    /// The fusion's direction whether or not it passed the confidence gate (phone frame).
    public var fusedDirection: Vector3?
    /// The carrier phase's change fused with this update (nil: none), with the phone's positions.
    public var phase: PhaseRecord?

    /// A carrier-phase change and where the phone was: as it believed for both procedures (what
    /// the fusion used), and truly for the earlier one (for the bound).
    public struct PhaseRecord: Sendable, Equatable {
        public var observation: DirectionFusion.PhaseObservation
        /// Where the phone believed it was for this update's procedure.
        public var believedPosition: Vector3
        /// Where the phone truly was for the earlier procedure.
        public var truePositionBefore: Vector3
    }

    /// |distance − truth|, metres (nil without a distance).
    public var distanceError: Double? { object.distance.map { abs($0 - trueDistance) } }

    /// Angle between the reported and the true direction, radians (nil without a direction).
    public var directionError: Double? {
        object.direction.map { acos(max(-1, min(1, $0.normalized.dot(trueDirection)))) }
    }

    /// Angle between the fusion's ungated direction and the truth, radians.
    public var fusedDirectionError: Double? {
        fusedDirection.map { acos(max(-1, min(1, $0.normalized.dot(trueDirection)))) }
    }

    /// |horizontal angle − true horizontal angle|, radians (nil without one).
    public var horizontalAngleError: Double? {
        object.horizontalAngle.map { abs(remainder($0 - atan2(trueDirection.x, -trueDirection.z), 2 * Double.pi)) }
    }

    /// Where the app would place the accessory (reported direction × distance from the phone),
    /// in the true world frame (nil without both).
    public var estimatedPosition: Vector3? {
        guard let d = object.direction, let r = object.distance else { return nil }
        let axes = (phonePose.right, phonePose.up, phonePose.forward)
        return phonePose.position + (axes.0 * d.x + axes.1 * d.y + axes.2 * (-d.z)) * r
    }
}
