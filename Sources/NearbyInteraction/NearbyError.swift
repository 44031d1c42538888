/// Why a Nearby Interaction session (`NearbySession`, `DLTDOASession`) was invalidated,
/// modelled on `NIError.Code`: cases an app can switch on, with Apple's codes in `code`.
public enum NearbyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// This phone cannot run this kind of session (no N1 chip for Channel Sounding, no UWB for DL-TDOA).
    case unsupportedPlatform
    /// The configuration names no connected accessory, or asks for what the phone cannot do.
    case invalidConfiguration(String)
    /// Channel Sounding with the accessory could not start or stopped (set-up refused, link
    /// lost): why, in words (NIError carries a code and a description, not the Bluetooth cause).
    case channelSoundingFailed(String)
    /// The accessory stopped the procedures (LE CS Procedure Enable Complete, disabled, from its side).
    case accessoryStoppedRanging
    /// The session ran longer than allowed (a background DL-TDOA session: 30 s).
    case resourceUsageTimeout
    /// The user did not allow what the session needs (location, for DL-TDOA).
    case userDidNotAllow
    /// The session was invalidated and cannot run again.
    case invalidated

    /// `NIError.Code`'s raw value for the case.
    public var code: Int {
        switch self {
        case .unsupportedPlatform: -5889
        case .invalidConfiguration: -5888
        case .channelSoundingFailed, .accessoryStoppedRanging, .invalidated: -5887
        case .resourceUsageTimeout: -5886
        case .userDidNotAllow: -5884
        }
    }

    public var description: String {
        switch self {
        case .unsupportedPlatform: return "this phone does not support this kind of Nearby Interaction session"
        case .invalidConfiguration(let why): return "invalid configuration: \(why)"
        case .channelSoundingFailed(let why): return "Channel Sounding failed: \(why)"
        case .accessoryStoppedRanging: return "the accessory stopped Channel Sounding"
        case .resourceUsageTimeout: return "the session ran longer than allowed (resource usage timeout)"
        case .userDidNotAllow: return "the user did not allow location access, which DL-TDOA needs"
        case .invalidated: return "the session was invalidated"
        }
    }
}
