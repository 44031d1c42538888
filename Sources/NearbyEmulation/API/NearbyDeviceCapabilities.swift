/// What the phone can do with Nearby Interaction, modelled on `NIDeviceCapability`: iOS 27
/// ranges Channel Sounding accessories only on iPhones with the N1 chip; direction needs the
/// camera (ARKit's visual-inertial tracking), which every such phone has.
public struct NearbyDeviceCapabilities: Sendable, Equatable {
    public var supportsBluetoothChannelSounding: Bool
    public var supportsCameraAssistance: Bool
    /// Direction from the radio alone (UWB's antenna array): not for Channel Sounding, where
    /// direction comes only from fusing distances with the camera's pose track.
    public var supportsDirectionMeasurement: Bool

    public init(supportsBluetoothChannelSounding: Bool, supportsCameraAssistance: Bool = true, supportsDirectionMeasurement: Bool = false) {
        self.supportsBluetoothChannelSounding = supportsBluetoothChannelSounding
        self.supportsCameraAssistance = supportsCameraAssistance
        self.supportsDirectionMeasurement = supportsDirectionMeasurement
    }
}
