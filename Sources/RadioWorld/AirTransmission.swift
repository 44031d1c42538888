import ReflectorFirmware

/// One thing a device put on the air during a step: a CS_SYNC packet (with its access address)
/// or a tone (with the rotation inline PCT transfer gave it). The Air keeps the current step's
/// transmissions; a reception sums what the peer sent on the same channel during its window.
public struct AirTransmission: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case sync(accessAddress: UInt32)
        case tone(rotation: IQSample)
    }

    public var device: AirDevice
    public var kind: Kind
    /// CS channel index (RF 2402 + channel MHz).
    public var channel: UInt8
    /// The sender's antenna (1-based) when it started.
    public var antenna: UInt8
    /// Start, µs on the controllers' clock.
    public var start: UInt64
    /// Length, µs.
    public var duration: UInt32

    public init(device: AirDevice, kind: Kind, channel: UInt8, antenna: UInt8, start: UInt64, duration: UInt32) {
        self.device = device
        self.kind = kind
        self.channel = channel
        self.antenna = antenna
        self.start = start
        self.duration = duration
    }

    @inline(__always)
    public var end: UInt64 { start + UInt64(duration) }
}
