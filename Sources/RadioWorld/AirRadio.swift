import ReflectorFirmware

/// One device's radio on the Air: the firmware's `RadioPort`, so the real `CSStepEngine` runs
/// over the simulated channel unchanged. It is a thin value over the shared `Air` (which holds
/// all state that both ends must see) plus the device's antenna switch.
public struct AirRadio: RadioPort {
    public let air: Air
    public let device: AirDevice
    public var antennaSwitch: AirAntennaSwitch

    public init(air: Air, device: AirDevice, recordsSelections: Bool = false) {
        self.air = air
        self.device = device
        antennaSwitch = AirAntennaSwitch(recordsSelections: recordsSelections)
    }

    public mutating func tune(channel: UInt8, at time: UInt64) {
        air.tune(device, channel: channel, at: time)
    }

    public mutating func transmitSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) {
        air.transmit(device, .sync(accessAddress: accessAddress), antenna: antennaSwitch.antenna, at: time,
                     duration: AirRadio.syncDuration(phy: phy, sequenceBits: sequenceBits))
    }

    public mutating func receiveSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) -> SyncReception {
        air.receiveSync(device, antenna: antennaSwitch.antenna, accessAddress: accessAddress, phy: phy, sequenceBits: sequenceBits, at: time,
                        duration: AirRadio.syncDuration(phy: phy, sequenceBits: sequenceBits))
    }

    public mutating func transmitTone(rotation: IQSample, at time: UInt64, duration: UInt32) {
        air.transmit(device, .tone(rotation: rotation), antenna: antennaSwitch.antenna, at: time, duration: duration)
    }

    public mutating func receiveTone(at time: UInt64, duration: UInt32) -> ToneReception {
        air.receiveTone(device, antenna: antennaSwitch.antenna, at: time, duration: duration)
    }

    public mutating func compensateFrequency(ppm: Float) {
        air.compensateFrequency(device, ppm: Double(ppm))
    }

    /// T_SY in µs for `sequenceBits` of sequence: 44 µs + 1 µs a bit on LE 1M, 26 µs + 0.5 µs a
    /// bit on LE 2M (as CSTiming.syncDuration, from bits rather than an RTT type).
    @inline(__always)
    static func syncDuration(phy: CSSyncPHY, sequenceBits: Int) -> UInt32 {
        let bits = UInt32(max(0, sequenceBits))
        switch phy {
        case .le1M: return 44 + bits
        case .le2M, .le2M2BT: return 26 + (bits + 1) / 2
        }
    }
}
