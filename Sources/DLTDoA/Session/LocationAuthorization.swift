/// The app's location authorization, which DL-TDOA requires (Apple: without it "the DL-TDOA
/// session stops with an error"). Modelled on Core Location's authorization status.
public enum LocationAuthorization: Sendable, Equatable {
    case notDetermined
    case denied
    case whenInUse
    case always

    /// Whether a session may range: when in use in the foreground; in the background only with
    /// always (a region-entry launch).
    public func allows(background: Bool) -> Bool {
        switch self {
        case .always: true
        case .whenInUse: !background
        case .denied, .notDetermined: false
        }
    }
}
