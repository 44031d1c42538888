/// A DL-TDoA frame as the phone's UWB radio received it: the octets, the receive timestamp on
/// the phone's 40-bit counter, the signal strength and the measured carrier frequency offset.
public struct HeardUWBFrame: Sendable, Equatable {
    public var octets: [UInt8]
    /// RCTU on the phone's counter.
    public var rawReceiveTime: UInt64
    /// dBm.
    public var signalStrength: Double
    /// Phone ticks per sender tick − 1.
    public var carrierFrequencyOffset: Double
    /// True time of arrival, seconds (for the simulation's bookkeeping, not the app).
    public var trueTime: Double

    public init(octets: [UInt8], rawReceiveTime: UInt64, signalStrength: Double, carrierFrequencyOffset: Double, trueTime: Double) {
        self.octets = octets
        self.rawReceiveTime = rawReceiveTime
        self.signalStrength = signalStrength
        self.carrierFrequencyOffset = carrierFrequencyOffset
        self.trueTime = trueTime
    }
}

/// A discovery advertisement the phone heard (Bluetooth LE advertising data or a Wi-Fi vendor
/// element, as `DiscoveryAdvertisement` encodes them).
public struct HeardAdvertisement: Sendable, Equatable {
    public var octets: [UInt8]
    public var time: Double
}
