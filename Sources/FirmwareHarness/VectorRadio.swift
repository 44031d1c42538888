#if !FIRMWARE_IMAGE
import ReflectorFirmware
#endif

/// The reflector's radio in the test image: it hears what the vector's `ReceptionPool` says,
/// in order, and records what the step engine did with it in the current step (the antennas it
/// selected, the rotations it sent under inline PCT, the CS_SYNC packets it sent), so the output
/// covers the engine's transmissions as well as its report. Fixed-size state, no allocation.
public struct VectorRadio: RadioPort {
    /// Records every antenna selection of the step, in order (at most `maxSelections`).
    public struct Switch: AntennaSwitch {
        public static let maxSelections = 16
        public var selections = InlineArray<16, UInt8>(repeating: 0)
        public var count = 0
        public mutating func select(antenna: UInt8, at time: UInt64) {
            if count < Self.maxSelections { selections[count] = antenna }
            count += 1
        }
    }

    public var antennaSwitch = Switch()
    public let pool: ReceptionPool
    private var nextTone = 0
    private var nextSync = 0

    /// What the engine sent in the current step.
    public private(set) var rotations = InlineArray<5, IQSample>(repeating: .zero)
    public private(set) var rotationCount = 0
    public private(set) var tonesSent = 0
    public private(set) var syncsSent = 0
    public private(set) var channel: UInt8 = 0

    public init(pool: ReceptionPool) { self.pool = pool }

    /// Clears the per-step record before the engine runs a step.
    public mutating func startStep() {
        antennaSwitch.count = 0
        rotationCount = 0
        tonesSent = 0
        syncsSent = 0
    }

    public mutating func tune(channel: UInt8, at time: UInt64) { self.channel = channel }

    public mutating func transmitSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) {
        syncsSent += 1
    }

    public mutating func receiveSync(accessAddress: UInt32, phy: CSSyncPHY, sequenceBits: Int, at time: UInt64) -> SyncReception {
        let s = pool.syncs[nextSync]
        nextSync = nextSync + 1 == pool.syncs.count ? 0 : nextSync + 1
        return s
    }

    public mutating func transmitTone(rotation: IQSample, at time: UInt64, duration: UInt32) {
        if rotationCount < 5 {
            rotations[rotationCount] = rotation
            rotationCount += 1
        }
        tonesSent += 1
    }

    public mutating func receiveTone(at time: UInt64, duration: UInt32) -> ToneReception {
        let t = pool.tones[nextTone]
        nextTone = nextTone + 1 == pool.tones.count ? 0 : nextTone + 1
        return t
    }

    public mutating func compensateFrequency(ppm: Float) {}
}
