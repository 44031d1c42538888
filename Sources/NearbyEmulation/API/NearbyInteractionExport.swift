/// Nearby Interaction over Channel Sounding shares the error type of every Nearby Interaction
/// session (`NearbyError`, in the module UWB DL-TDoA stands on too).
@_exported import NearbyInteraction
