/// Everything the Air needs to know about the world, with defaults for a clean 2 m office
/// link: geometry, propagation model, noise, oscillators, packet and tone losses, RTT jitter
/// and the seed. A value type, so a test or a sweep copies it and changes one thing.
public struct AirScenario: Sendable, Equatable {
    /// Fixes every random draw of a run: the same scenario gives the same receptions bit for bit.
    public var seed: UInt64

    // MARK: Geometry and propagation

    public var geometry: AirGeometry
    public var channelModel: AirChannelModel
    /// How often the multipath taps are redrawn, µs: at the first step that starts at least this
    /// long after the last draw. nil: only when `Air.redrawChannel()` is called (a driver calls
    /// it per procedure for independent realizations). Free space has nothing to redraw.
    public var channelCoherenceTime: UInt64?

    // MARK: Tones

    /// Amplitude of a received tone through a unit channel, in the firmware's PCT scale (±2047
    /// full scale): the receiver's AGC keeps tones about 6 dB under full scale whatever the path
    /// loss, so multipath, not distance, sets the tone's level.
    public var toneAmplitude: Double
    /// Per-tone SNR in dB against a unit channel: complex AWGN with E|n|² = A²·10^(−SNR/10) is
    /// added to every received tone (so a free-space tone has exactly this SNR, and a faded
    /// multipath tone less). `.infinity` is noise-free.
    public var snrDB: Double
    /// Probability that a tone is lost (the receiver measures noise only).
    public var toneDropProbability: Double
    /// Whether a tone that rotates against the receiver's LO (a frequency offset Δf) loses
    /// amplitude by sinc(Δf·T) when averaged over the T_PM window, as a plain I/Q average does.
    /// The mid-window phase is unaffected and the loss is the same on both hops, so the
    /// round-trip phase survives; but uncompensated (12 ppm ≈ 29 kHz at 2.44 GHz) a 40 µs window
    /// costs about 17 dB of SNR, which is why the initiator compensates after mode 0. Off: tones
    /// keep full amplitude whatever the offset (exactly the reference §3.1 model).
    public var windowAveraging: Bool

    // MARK: Oscillators

    /// Each device's crystal offset from nominal, ppm. The defaults: a phone on frequency and an
    /// accessory 12 ppm fast (within the ±20 ppm Bluetooth budget, enough to show in PBR).
    public var initiatorCrystalPPM: Double
    public var reflectorCrystalPPM: Double
    /// 1σ error of the mode-0 frequency measurement at 20 dB SNR, ppm; it scales as
    /// 10^((20 − SNR)/20). 0.05 ppm is a T_FM = 80 µs tone averaged by a typical estimator.
    public var frequencyMeasurementSigmaPPMAt20dB: Double

    // MARK: CS_SYNC

    /// Probability that a CS_SYNC packet is missed ("AA not found").
    public var syncDropProbability: Double
    /// Transmit power, dBm, from which RSSI follows by free-space path loss.
    public var txPowerDBm: Double
    /// 1σ jitter a radio adds to a CS_SYNC's arrival time, ns, beyond the Cramér–Rao error of
    /// the packet at the scenario's SNR (which the Air always adds; `Air.receiveSync`).
    public var rttJitterNanoseconds: Double
    /// The resolution of a radio's timestamps, ns: each arrival is rounded to it, then to the
    /// 0.5 ns of the step-data field. Real controllers time on their sampling clock with some
    /// interpolation; 0.5 (the default) leaves only the field's own rounding.
    public var rttResolutionNanoseconds: Double

    // MARK: The boards' own delays

    /// The RF delays of each device's antennas (`AirBoardDelays`): what a real board's
    /// matching network, switch and traces add to every antenna path, and what a calibration
    /// learns (`BoardCalibration`). None by default.
    public var initiatorDelays: AirBoardDelays
    public var reflectorDelays: AirBoardDelays

    public init(
        seed: UInt64 = 1,
        geometry: AirGeometry = AirGeometry(),
        channelModel: AirChannelModel = .freeSpace,
        channelCoherenceTime: UInt64? = nil,
        toneAmplitude: Double = 1000,
        snrDB: Double = 30,
        toneDropProbability: Double = 0,
        windowAveraging: Bool = true,
        initiatorCrystalPPM: Double = 0,
        reflectorCrystalPPM: Double = 12,
        frequencyMeasurementSigmaPPMAt20dB: Double = 0.05,
        syncDropProbability: Double = 0,
        txPowerDBm: Double = 0,
        rttJitterNanoseconds: Double = 1,
        rttResolutionNanoseconds: Double = 0.5,
        initiatorDelays: AirBoardDelays = .none,
        reflectorDelays: AirBoardDelays = .none
    ) {
        self.seed = seed
        self.geometry = geometry
        self.channelModel = channelModel
        self.channelCoherenceTime = channelCoherenceTime
        self.toneAmplitude = toneAmplitude
        self.snrDB = snrDB
        self.toneDropProbability = toneDropProbability
        self.windowAveraging = windowAveraging
        self.initiatorCrystalPPM = initiatorCrystalPPM
        self.reflectorCrystalPPM = reflectorCrystalPPM
        self.frequencyMeasurementSigmaPPMAt20dB = frequencyMeasurementSigmaPPMAt20dB
        self.syncDropProbability = syncDropProbability
        self.txPowerDBm = txPowerDBm
        self.rttJitterNanoseconds = rttJitterNanoseconds
        self.rttResolutionNanoseconds = rttResolutionNanoseconds
        self.initiatorDelays = initiatorDelays
        self.reflectorDelays = reflectorDelays
    }

    /// The delays of `device`'s board.
    @inline(__always)
    public func delays(_ device: AirDevice) -> AirBoardDelays {
        device == .initiator ? initiatorDelays : reflectorDelays
    }

    /// A noise-free, offset-free, jitter-free free-space link at `distance` metres: the ideal
    /// against which the exact phase tests run.
    public static func ideal(distance: Double = 2.0, seed: UInt64 = 1) -> AirScenario {
        AirScenario(seed: seed, geometry: AirGeometry(distance: distance), snrDB: .infinity,
                    reflectorCrystalPPM: 0, rttJitterNanoseconds: 0)
    }

    /// The crystal offset of `device`, ppm.
    @inline(__always)
    public func crystalPPM(_ device: AirDevice) -> Double {
        device == .initiator ? initiatorCrystalPPM : reflectorCrystalPPM
    }

    /// E|n|² of a received tone, in PCT units² (0 when noise-free).
    public var noiseVariance: Double {
        snrDB.isFinite ? toneAmplitude * toneAmplitude * _pow10(-snrDB / 10) : 0
    }
}
