/// What the app tells Nearby Interaction about how the accessory moves (mirrors
/// `NIMotionActivityState`). The direction filter uses it to choose its process model: a hint
/// that the accessory is stationary lets ranges from many phone positions add up to a sharp fix.
public enum MotionActivityState: Sendable, Equatable, CaseIterable {
    case unknown
    case stationary
    case moving
}
