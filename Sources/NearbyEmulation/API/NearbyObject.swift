import EmulatorMath
import Foundation

/// Identifies the accessory an update is about, modelled on `NIDiscoveryToken` (for Channel
/// Sounding it stands for the Core Bluetooth identifier the session was run with).
public struct NearbyDiscoveryToken: Sendable, Hashable {
    public let identifier: UUID
}

/// One update about the accessory, modelled on `NINearbyObject`. Distance and direction are
/// separately optional: distance is nil when the procedure's measurement failed (never a
/// stale value); direction is nil without camera assistance and until the fusion is confident.
/// `time` and `measurementRate` are the emulator's additions, so a developer can see when and
/// how often updates came (iOS lowers the rate under Bluetooth and Wi-Fi load).
public struct NearbyObject: Sendable, Equatable {
    public var discoveryToken: NearbyDiscoveryToken
    /// Metres, smoothed.
    public var distance: Double?
    /// Unit vector in the phone frame (x right, y up, −z out of the back camera).
    public var direction: Vector3?
    /// Radians, positive to the right of the camera axis, in the phone's horizontal plane. It
    /// can come before `direction`: a sideways sweep fixes it, elevation needs a vertical one.
    public var horizontalAngle: Double?
    /// Above or below the phone (camera assistance only; `.unknown` otherwise).
    public var verticalDirectionEstimate: VerticalDirectionEstimate
    /// Virtual time of the procedure, seconds.
    public var time: Double
    /// Procedures per second at which this update came.
    public var measurementRate: Double

    public init(discoveryToken: NearbyDiscoveryToken, distance: Double?, direction: Vector3?, horizontalAngle: Double?,
                verticalDirectionEstimate: VerticalDirectionEstimate = .unknown, time: Double, measurementRate: Double) {
        self.verticalDirectionEstimate = verticalDirectionEstimate
        self.discoveryToken = discoveryToken
        self.distance = distance
        self.direction = direction
        self.horizontalAngle = horizontalAngle
        self.time = time
        self.measurementRate = measurementRate
    }

    /// Radians above the phone's horizontal plane, from `direction`.
    public var elevation: Double? { direction.map { atan2($0.y, ($0.x * $0.x + $0.z * $0.z).squareRoot()) } }
}
