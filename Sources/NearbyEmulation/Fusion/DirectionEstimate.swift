import EmulatorMath
/// What the direction filter believes about the accessory, seen from one phone pose.
///
/// Positions are in the VIO (camera-tracking) world frame, the only frame the phone knows;
/// the direction is in the phone frame (x right, y up, −z out of the back camera), as
/// `NINearbyObject.direction` is.
public struct DirectionEstimate: Sendable, Equatable {
    /// The estimated accessory position (lightly smoothed), VIO world frame, metres.
    public var position: Vector3
    /// Distance from the phone to `position`, metres.
    public var distance: Double
    /// Unit vector towards the accessory in the phone frame.
    public var direction: Vector3
    /// Horizontal angle in the phone frame, radians, positive to the right: atan2(x, −z).
    public var azimuth: Double
    /// Vertical angle in the phone frame, radians, positive up: atan2(y, hypot(x, z)).
    public var elevation: Double
    /// Weighted RMS angle between the particles' directions and their mean direction, radians:
    /// how uncertain the direction still is.
    public var spread: Double
    /// Weighted RMS difference between the particles' azimuths and their mean azimuth, radians.
    /// Smaller than `spread` after a sideways sweep, which fixes azimuth but not elevation.
    public var horizontalSpread: Double
    /// True when the filter would report this direction (spread small and enough ranges fused).
    public var isConfident: Bool
    /// True when the filter would report the horizontal angle (`azimuth`) on its own, as iOS
    /// reports `horizontalAngle` before the full direction is known.
    public var isHorizontalConfident: Bool
}
