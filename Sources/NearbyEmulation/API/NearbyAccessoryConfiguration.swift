import Foundation

/// What an app runs a `NearbySession` with, modelled on iOS 27's
/// `NINearbyAccessoryConfiguration(bluetoothChannelSoundingIdentifier:previousBluetoothIdentifier:)`:
/// the Core Bluetooth identifier of the connected accessory, and the camera-assistance switch
/// that direction requires.
public struct NearbyAccessoryConfiguration: Sendable, Equatable {
    /// `Peripheral.identifier` of the connected accessory.
    public var bluetoothChannelSoundingIdentifier: UUID
    /// The identifier the accessory had before (reconnection after an address change).
    public var previousBluetoothIdentifier: UUID?
    /// Fuse the camera's pose track with the distances to get direction. Off: distance only.
    public var isCameraAssistanceEnabled: Bool

    public init(bluetoothChannelSoundingIdentifier: UUID, previousBluetoothIdentifier: UUID? = nil, isCameraAssistanceEnabled: Bool = false) {
        self.bluetoothChannelSoundingIdentifier = bluetoothChannelSoundingIdentifier
        self.previousBluetoothIdentifier = previousBluetoothIdentifier
        self.isCameraAssistanceEnabled = isCameraAssistanceEnabled
    }
}
