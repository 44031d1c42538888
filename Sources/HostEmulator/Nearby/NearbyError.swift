/// Why a `NearbySession` was invalidated, modelled on `NIError.Code`: cases an app can switch on.
public enum NearbyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// This phone cannot range Channel Sounding accessories (no N1 chip).
    case unsupportedPlatform
    /// The configuration names no connected accessory, or asks for what the phone cannot do.
    case invalidConfiguration(String)
    /// Channel Sounding with the accessory could not start or stopped (set-up refused, link lost).
    case channelSoundingFailed(ChannelSoundingError)
    /// The accessory stopped the procedures (LE CS Procedure Enable Complete, disabled, from its side).
    case accessoryStoppedRanging
    /// The session was invalidated and cannot run again.
    case invalidated

    public var description: String {
        switch self {
        case .unsupportedPlatform: return "this phone does not support Nearby Interaction with Channel Sounding accessories"
        case .invalidConfiguration(let why): return "invalid configuration: \(why)"
        case .channelSoundingFailed(let e): return "Channel Sounding failed: \(e)"
        case .accessoryStoppedRanging: return "the accessory stopped Channel Sounding"
        case .invalidated: return "the session was invalidated"
        }
    }
}
