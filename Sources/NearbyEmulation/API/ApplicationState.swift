/// Where the app using a `NearbySession` is: iOS 27 runs Channel Sounding only while the app is
/// in the foreground, and suspends the session in the background.
public enum ApplicationState: Sendable, Equatable {
    case foreground
    case background
}
