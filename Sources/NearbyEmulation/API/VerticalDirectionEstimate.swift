/// Whether the accessory is above or below the phone, modelled on
/// `NINearbyObject.VerticalDirectionEstimate`: what a camera-assisted session can say before
/// (or without) a full direction. A sideways sweep alone leaves a mirror image above and below
/// the plane of the motion, which is `aboveOrBelow`.
public enum VerticalDirectionEstimate: Sendable, Equatable {
    case unknown
    /// Within `DirectionFusion.sameLevelTolerance` of the phone's height.
    case same
    case above
    case below
    case aboveOrBelow
}
