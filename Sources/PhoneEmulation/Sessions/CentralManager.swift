import Foundation

/// The phone's Bluetooth central, modelled on `CBCentralManager`: it says whether the phone
/// supports Channel Sounding (iOS 27: iPhones with the N1 chip, where the region allows it)
/// and connects peripherals.
public final class CentralManager {
    public enum Feature: Sendable, Equatable {
        case channelSounding
    }

    /// Whether this emulated phone has Channel Sounding hardware.
    public let hasChannelSoundingHardware: Bool

    public init(hasChannelSoundingHardware: Bool = true) {
        self.hasChannelSoundingHardware = hasChannelSoundingHardware
    }

    /// `CBCentralManager.supports(_:)`.
    public func supports(_ feature: Feature) -> Bool {
        switch feature {
        case .channelSounding: return hasChannelSoundingHardware
        }
    }

    /// Peripherals this central has connected, by identifier.
    private var known: [UUID: Peripheral] = [:]

    /// Connects `peripheral` (the emulated link is always in range).
    public func connect(_ peripheral: Peripheral) {
        peripheral.central = self
        known[peripheral.identifier] = peripheral
    }

    /// `CBCentralManager.retrievePeripherals(withIdentifiers:)`: the peripherals this central
    /// knows, in the order asked, skipping identifiers it does not know.
    public func retrievePeripherals(withIdentifiers identifiers: [UUID]) -> [Peripheral] {
        identifiers.compactMap { known[$0] }
    }

    /// Disconnects `peripheral`; a running session ends with `.notConnected`.
    public func cancelPeripheralConnection(_ peripheral: Peripheral) {
        peripheral.disconnected()
    }
}
