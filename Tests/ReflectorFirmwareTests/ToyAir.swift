import Foundation
@testable import ReflectorFirmware

/// A minimal shared medium for step-engine tests: transmissions are recorded, and a reception
/// sums the tones that overlap it on the same channel through a fixed per-antenna-pair channel
/// h = e^{-j2π f τ} with free LO phases at each device. No noise, no delay in time: enough to
/// check antenna order, timing, PCT packing and inline PCT transfer exactly.
final class ToyAir {
    struct Transmission {
        var device: Int
        var channel: UInt8
        var antenna: UInt8
        var start: UInt64
        var duration: UInt32
        var rotation: IQSample
        var syncAddress: UInt32?
    }

    var transmissions: [Transmission] = []
    /// Propagation delay in ns from an initiator antenna to a reflector antenna (symmetric).
    var delayNanoseconds: (UInt8, UInt8) -> Double = { i, r in 3.0 + Double(i) * 0.4 + Double(r) * 0.7 }
    /// Each device's LO phase, radians.
    var loPhase: [Double] = [0.9, -2.1]
    var amplitude: Double = 1000
    /// Whether CS_SYNC packets get through.
    var syncsArrive = true

    func channelResponse(channel: UInt8, initiatorAntenna: UInt8, reflectorAntenna: UInt8) -> IQSample {
        let f = (2402.0 + Double(channel)) * 1e6
        let phi = -2 * Double.pi * f * delayNanoseconds(initiatorAntenna, reflectorAntenna) * 1e-9
        return IQSample(i: Float(cos(phi)), q: Float(sin(phi)))
    }
}

/// Records which antenna is selected when.
struct RecordingSwitch: AntennaSwitch {
    var selections: [(antenna: UInt8, time: UInt64)] = []
    mutating func select(antenna: UInt8, at time: UInt64) { selections.append((antenna, time)) }
    func antenna(at time: UInt64) -> UInt8 { selections.last { $0.time <= time }?.antenna ?? 1 }
}

/// One device's radio on the ToyAir (device 0 = initiator, 1 = reflector).
struct ToyRadio: RadioPort {
    let air: ToyAir
    let device: Int
    var antennaSwitch = RecordingSwitch()
    var channel: UInt8 = 0
    var toneReceptions: [(time: UInt64, iq: IQSample)] = []

    init(air: ToyAir, device: Int) {
        self.air = air
        self.device = device
    }

    mutating func tune(channel: UInt8, at time: UInt64) { self.channel = channel }

    mutating func transmitSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) {
        air.transmissions.append(.init(device: device, channel: channel, antenna: antennaSwitch.antenna(at: time), start: time,
                                       duration: CSTiming.syncDuration(phy: phy, rttType: .accessAddressOnly), rotation: .one, syncAddress: accessAddress))
    }

    mutating func receiveSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) -> SyncReception {
        let found = air.syncsArrive && air.transmissions.contains { $0.device != device && $0.syncAddress == accessAddress && $0.start == time && $0.channel == channel }
        return found ? SyncReception(detected: true, rssi: -40, arrivalOffsetHalfNanoseconds: 12) : .missed
    }

    mutating func transmitTone(rotation: IQSample, at time: UInt64, duration: UInt32) {
        air.transmissions.append(.init(device: device, channel: channel, antenna: antennaSwitch.antenna(at: time), start: time,
                                       duration: duration, rotation: rotation, syncAddress: nil))
    }

    mutating func compensateFrequency(ppm: Float) {}

    mutating func receiveTone(at time: UInt64, duration: UInt32) -> ToneReception {
        let rxAntenna = antennaSwitch.antenna(at: time)
        var sum = IQSample.zero
        for t in air.transmissions where t.device != device && t.syncAddress == nil && t.channel == channel && t.start == time {
            let (ia, ra) = device == 0 ? (rxAntenna, t.antenna) : (t.antenna, rxAntenna)
            let lo = air.loPhase[t.device] - air.loPhase[device]
            let h = air.channelResponse(channel: channel, initiatorAntenna: ia, reflectorAntenna: ra)
            sum = sum + h * t.rotation * IQSample(i: Float(cos(lo) * air.amplitude), q: Float(sin(lo) * air.amplitude))
        }
        toneReceptions.append((time, sum))
        return ToneReception(iq: sum, snrDB: sum.magnitude > 0 ? 30 : -100, frequencyOffsetPPM: 1.25)
    }
}
