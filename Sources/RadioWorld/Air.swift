import EmulatorMath
import RangingEstimation
import ReflectorFirmware

/// The simulated radio channel both devices' radios share (reference estimation.md §3.1): it
/// holds the scenario, the current multipath realization, each device's oscillator state and
/// the current step's transmissions, and computes every reception from what the peer sent.
///
/// The signal model, for a tone that device A sends with rotation r and device B measures over
/// a window that the tone overlaps from t₀ to t₁ (mid-point t):
///
///     y = A_tone · (t₁−t₀)/T · sinc(Δf·(t₁−t₀)) · H_pair(f, t) · r · e^{j(θ_A(t) − θ_B(t))} + n
///
/// - θ_X(t) = θ_X,step + 2π·f·ppm_X·10⁻⁶·(t − t_tune,X): a new uniform LO phase every time the
///   device tunes (each step), plus the drift of its effective frequency offset (crystal plus
///   whatever it compensated), counted from its tune time so the numbers stay small. The LO
///   phases cancel in the round trip; a residual offset ε = ppm_R − ppm_I leaves
///   e^{+j2π·f·ε·10⁻⁶·ΔT} on the round trip, the c·ε·ΔT/2 range bias of reference §2.5.
/// - Δf = f·(ppm_A − ppm_B)·10⁻⁶: averaging a tone that rotates over the window shrinks it by
///   sinc (sin(πx)/(πx)) but keeps the mid-window phase (`AirScenario.windowAveraging`).
/// - H_pair: the channel of the antenna pair in use, the same both ways (reciprocal), computed
///   once per step, channel and pair (on first use) from the geometry at the step's start; motion within the step
///   adds the Doppler phase −2π·f·v·(t − t_step)/c.
/// - The boards' own delays (`AirBoardDelays`) lengthen each antenna pair's path by its antennas'
///   RF delays, and each device's CS_SYNC timestamps by its timing delay.
/// - n: complex AWGN with E|n|² = A_tone²·10^(−SNR/10).
///
/// Random draws come from separate seeded streams (LO phases, channel taps, noise, events) so
/// that changing one impairment does not reshuffle the others. The Air is a class because both
/// radios mutate it; it is not thread-safe (one loopback run per Air).
public final class Air {
    /// c in m/s.
    public static let speedOfLight = 299_792_458.0

    public let scenario: AirScenario
    /// The multipath taps in force.
    public private(set) var realization: ChannelRealization
    /// The current step's transmissions (those of earlier steps are dropped as steps begin).
    public private(set) var transmissions: [AirTransmission] = []

    struct DeviceState {
        var channel: UInt8 = 0
        var tuneTime: UInt64 = 0
        var loPhase: Double = 0
        var compensationPPM: Double = 0
    }

    private var devices = [DeviceState(), DeviceState()]
    private var stepStart: UInt64?
    private var lastDraw: UInt64 = 0
    private var channelRNG: SeededGenerator
    private var loRNG: SeededGenerator
    private var noiseRNG: SeededGenerator
    private var eventRNG: SeededGenerator
    /// The CS_SYNC arrivals' timing error: a stream of its own, so that modelling it leaves every
    /// other draw of a run as it was.
    private var timingRNG: SeededGenerator

    // The per-step channel responses: one per antenna pair, for `cachedChannel`.
    private var cacheValid = false
    private var cachedChannel: UInt8 = 0
    private var cachedFrequency: Double = 0
    private var cachedResponses: [Complex]
    /// `responseGeneration` when a pair's entry was computed; entries are computed on first use.
    private var responseStamps: [UInt32]
    private var responseGeneration: UInt32 = 1
    private var cachedStepTime: UInt64 = 0
    private var cachedDopplerRate: Double = 0
    private var tapPhasors: [Complex]
    private let initiatorAntennaCount: Int
    private let reflectorAntennaCount: Int
    private let noiseVariance: Double
    private let noiseSigma: Double
    /// Each antenna pair's RF delay, metres (`AirBoardDelays`: the initiator's antenna's plus
    /// the reflector's), added to its path length.
    private let pairDelays: [Double]

    public init(scenario: AirScenario = AirScenario()) {
        self.scenario = scenario
        channelRNG = SeededGenerator(seed: scenario.seed, stream: 1)
        loRNG = SeededGenerator(seed: scenario.seed, stream: 2)
        noiseRNG = SeededGenerator(seed: scenario.seed, stream: 3)
        eventRNG = SeededGenerator(seed: scenario.seed, stream: 4)
        timingRNG = SeededGenerator(seed: scenario.seed, stream: 5)
        initiatorAntennaCount = scenario.geometry.initiatorAntennas.count
        reflectorAntennaCount = scenario.geometry.reflectorAntennas.count
        let pairs = initiatorAntennaCount * reflectorAntennaCount
        realization = ChannelRealization.draw(scenario.channelModel, pairs: pairs, distance: scenario.geometry.distance(at: 0), using: &channelRNG)
        cachedResponses = Array(repeating: .zero, count: pairs)
        responseStamps = Array(repeating: 0, count: pairs)
        tapPhasors = Array(repeating: .zero, count: realization.tapCount)
        transmissions.reserveCapacity(32)
        noiseVariance = scenario.noiseVariance
        noiseSigma = noiseVariance.squareRoot()
        let rc = reflectorAntennaCount
        pairDelays = (0..<pairs).map { p in
            scenario.initiatorDelays.antenna(UInt8(p / rc + 1)) + scenario.reflectorDelays.antenna(UInt8(p % rc + 1))
        }
    }

    /// A radio for `device` on this Air.
    public func radio(_ device: AirDevice, recordsSelections: Bool = false) -> AirRadio {
        AirRadio(air: self, device: device, recordsSelections: recordsSelections)
    }

    // MARK: Realizations and inspection

    /// Draws new multipath taps (a new realization): call between procedures for independent
    /// fading, or let `channelCoherenceTime` do it.
    public func redrawChannel(at time: UInt64? = nil) {
        realization = ChannelRealization.draw(scenario.channelModel, pairs: realization.pairCount,
                                              distance: scenario.geometry.distance(at: time ?? stepStart ?? 0), using: &channelRNG)
        if let time { lastDraw = time }
        cacheValid = false
    }

    /// RF frequency of CS channel `channel`, Hz.
    @inline(__always)
    public static func frequency(channel: UInt8) -> Double { (2402.0 + Double(channel)) * 1e6 }

    /// The (reciprocal) channel between two antennas on `channel` with the geometry at `time`:
    /// what a unit tone picks up, without LO phases and noise.
    public func channelResponse(channel: UInt8, initiatorAntenna: UInt8, reflectorAntenna: UInt8, at time: UInt64 = 0) -> Complex {
        let pair = pairIndex(initiator: initiatorAntenna, reflector: reflectorAntenna)
        let length = scenario.geometry.pathLength(initiatorAntenna: initiatorAntenna, reflectorAntenna: reflectorAntenna, at: time)
            + pairDelays[pair]
        return realization.response(pair: pair, frequency: Air.frequency(channel: channel), lineOfSightLength: length)
    }

    /// The device's effective frequency offset: crystal plus compensation, ppm.
    public func effectivePPM(_ device: AirDevice) -> Double {
        scenario.crystalPPM(device) + devices[device.rawValue].compensationPPM
    }

    /// The device's total compensation so far, ppm.
    public func compensationPPM(_ device: AirDevice) -> Double { devices[device.rawValue].compensationPPM }

    /// The channel `device` is tuned to.
    public func channel(of device: AirDevice) -> UInt8 { devices[device.rawValue].channel }

    // MARK: The radios' side

    /// The device tunes for the step starting at `time`: a new LO phase. The first tune at a new
    /// time begins a step: earlier transmissions are dropped and the channel responses are
    /// recomputed when next needed.
    public func tune(_ device: AirDevice, channel: UInt8, at time: UInt64) {
        if stepStart != time { beginStep(at: time) }
        devices[device.rawValue].channel = channel
        devices[device.rawValue].tuneTime = time
        devices[device.rawValue].loPhase = loRNG.phase()
    }

    /// Shifts the device's carrier by `ppm` from now on (compensations add up).
    public func compensateFrequency(_ device: AirDevice, ppm: Double) {
        devices[device.rawValue].compensationPPM += ppm
    }

    /// Records a transmission of `device` on its tuned channel.
    public func transmit(_ device: AirDevice, _ kind: AirTransmission.Kind, antenna: UInt8, at time: UInt64, duration: UInt32) {
        transmissions.append(AirTransmission(device: device, kind: kind, channel: devices[device.rawValue].channel,
                                             antenna: antenna, start: time, duration: duration))
    }

    /// What `device`, listening on `antenna` for a CS_SYNC with `accessAddress` due at `time`,
    /// receives: missed when the peer sent none overlapping the window on this channel or when
    /// the packet is lost (`syncDropProbability`); otherwise RSSI from free-space path loss
    /// and the pair's channel gain, and the arrival offset against `time` in 0.5 ns: the
    /// line-of-sight one-way delay (plus any start-time difference), plus what a receiver's
    /// timing adds —
    /// - the correlator's multipath bias (`SyncArrival`: the peak of the merged paths);
    /// - Gaussian error at the Cramér–Rao bound of the arrival for this packet (`phy`, the
    ///   `sequenceBits` of sounding or random sequence) at the scenario's SNR times the pair's
    ///   channel gain on this channel (`RoundTripTimeBound`: the tone SNR taken as the packet's
    ///   per-symbol SNR, one link budget for both);
    /// - the radio's own jitter (`rttJitterNanoseconds`);
    /// - quantization of the timestamp to `rttResolutionNanoseconds`, then to the 0.5 ns field.
    public func receiveSync(_ device: AirDevice, antenna: UInt8, accessAddress: UInt32, phy: CSSyncPHY = .le1M,
                            sequenceBits: Int = 0, at time: UInt64, duration: UInt32) -> SyncReception {
        let channel = devices[device.rawValue].channel
        let windowEnd = time + UInt64(duration)
        var found: AirTransmission?
        for tx in transmissions where tx.device != device && tx.channel == channel && tx.start < windowEnd && tx.end > time {
            if case .sync(let aa) = tx.kind, aa == accessAddress {
                found = tx
                break
            }
        }
        guard let tx = found, !eventRNG.bernoulli(scenario.syncDropProbability) else { return .missed }
        let (ia, ra) = device == .initiator ? (antenna, tx.antenna) : (tx.antenna, antenna)
        let geometricLength = scenario.geometry.pathLength(initiatorAntenna: ia, reflectorAntenna: ra, at: tx.start)
        ensureResponses(channel: channel)
        let pair = pairIndex(initiator: ia, reflector: ra)
        // The boards' antenna delays lengthen the path; the receiver's timing delay its stamp.
        let length = geometricLength + pairDelays[pair] + scenario.delays(device).timing
        let gain = response(pair: pair).magnitudeSquared
        let f = cachedFrequency
        let fspl = 20 * _log10(max(4 * Double.pi * geometricLength * f / Air.speedOfLight, 1))
        let rssi = scenario.txPowerDBm + 10 * _log10(max(gain, 1e-12)) - fspl
        let jitter = scenario.rttJitterNanoseconds > 0 ? eventRNG.gaussian() * scenario.rttJitterNanoseconds : 0
        let timingPHY = RoundTripTimeBound.PHY(phy)
        let bias = SyncArrival.bias(delays: realization.delays, gains: realization.gains, base: pair * realization.tapCount,
                                    phasors: tapPhasors, rmsBandwidth: timingPHY.rmsBandwidth)
        var timingError = 0.0
        if scenario.snrDB.isFinite {
            let sigma = RoundTripTimeBound.arrivalStandardDeviation(snrDB: scenario.snrDB + 10 * _log10(max(gain, 1e-12)),
                                                                    phy: timingPHY, sequenceBits: sequenceBits)
            timingError = timingRNG.gaussian() * min(sigma, 1e-6)
        }
        let startOffsetNs = (Double(tx.start) - Double(time)) * 1000
        var arrivalNs = startOffsetNs + (length / Air.speedOfLight + bias + timingError) * 1e9 + jitter
        let resolution = scenario.rttResolutionNanoseconds
        if resolution > 0.5 { arrivalNs = _rint(arrivalNs / resolution) * resolution }
        let halfNs = _rint(2 * arrivalNs)
        return SyncReception(detected: true, rssi: Int8(max(-127, min(20, _rint(rssi)))),
                             arrivalOffsetHalfNanoseconds: Int32(max(Double(Int32.min), min(Double(Int32.max), halfNs))))
    }

    /// What `device`, on `antenna`, measures over `duration` µs from `time`: the sum of the
    /// peer's tones overlapping the window on this channel through the model above, a drop
    /// (`toneDropProbability`: noise only), AWGN, an SNR estimate and the frequency offset.
    ///
    /// The SNR estimate is the radio's: it knows its noise floor σ² and estimates the signal
    /// power as |y|² − σ², so it scatters around the true SNR (about ±0.9 dB at 20 dB), falls
    /// with a faded channel, and reads ≤ 3 dB (rated low) for noise alone 95 % of the time;
    /// floored at −30 dB. Noise-free: 99 dB with a tone, −∞ without. The frequency offset is
    /// the peer's effective offset minus this device's (plus Doppler, −v/c) in ppm, with
    /// Gaussian measurement error σ = σ₂₀·10^((20 − SNR)/20); NaN when no tone arrived.
    public func receiveTone(_ device: AirDevice, antenna: UInt8, at time: UInt64, duration: UInt32) -> ToneReception {
        let me = devices[device.rawValue]
        let windowEnd = time + UInt64(duration)
        var sum = Complex.zero
        var received = false
        var offsetPPM = Double.nan
        let myPPM = scenario.crystalPPM(device) + me.compensationPPM
        for k in transmissions.indices {
            let tx = transmissions[k]
            guard tx.device != device, tx.channel == me.channel, tx.start < windowEnd, tx.end > time,
                  case .tone(let rotation) = tx.kind else { continue }
            if !received { ensureResponses(channel: me.channel) }
            received = true
            let from = max(tx.start, time)
            let overlap = Double(min(tx.end, windowEnd) - from)
            let peer = devices[tx.device.rawValue]
            let peerPPM = scenario.crystalPPM(tx.device) + peer.compensationPPM
            let f = cachedFrequency
            // Times from each device's tune (µs) at the middle of the overlap.
            let mid = Double(Int64(bitPattern: from &- peer.tuneTime)) + overlap / 2
            let midMine = Double(Int64(bitPattern: from &- me.tuneTime)) + overlap / 2
            let midStep = Double(Int64(bitPattern: from &- (stepStart ?? from))) + overlap / 2
            let twoPiF = 2 * Double.pi * f
            let phase = peer.loPhase - me.loPhase
                + twoPiF * 1e-12 * (peerPPM * mid - myPPM * midMine)   // ppm·1e-6 × µs·1e-6
                + cachedDopplerRate * midStep * 1e-6
            let x = Double.pi * f * (peerPPM - myPPM) * 1e-12 * overlap
            let sinc = x == 0 || !scenario.windowAveraging ? 1 : _sin(x) / x
            let (ia, ra) = device == .initiator ? (antenna, tx.antenna) : (tx.antenna, antenna)
            let h = response(pair: pairIndex(initiator: ia, reflector: ra))
            let scale = scenario.toneAmplitude * overlap / Double(duration) * sinc
            let r = Complex(Double(rotation.i), Double(rotation.q))
            sum += h * r * Complex(phase: phase) * scale
            offsetPPM = peerPPM - myPPM + cachedDopplerRate / twoPiF * 1e6
        }
        if received, scenario.toneDropProbability > 0, eventRNG.bernoulli(scenario.toneDropProbability) {
            sum = .zero
            received = false
            offsetPPM = .nan
        }
        if noiseVariance > 0 {
            let (a, b) = noiseRNG.gaussianPair()
            let s = noiseSigma * 0.5.squareRoot()
            sum += Complex(a * s, b * s)
        }
        let snr: Double
        if noiseVariance > 0 {
            snr = 10 * _log10(max(sum.magnitudeSquared - noiseVariance, noiseVariance * 1e-3) / noiseVariance)
        } else {
            snr = sum.magnitudeSquared > 0 ? 99 : -.infinity
        }
        if received, scenario.frequencyMeasurementSigmaPPMAt20dB > 0, scenario.snrDB.isFinite {
            offsetPPM += noiseRNG.gaussian() * scenario.frequencyMeasurementSigmaPPMAt20dB * _pow10((20 - scenario.snrDB) / 20)
        }
        return ToneReception(iq: IQSample(i: Float(sum.re), q: Float(sum.im)), snrDB: Float(snr), frequencyOffsetPPM: Float(offsetPPM))
    }

    // MARK: Internals

    private func beginStep(at time: UInt64) {
        stepStart = time
        transmissions.removeAll(keepingCapacity: true)
        cacheValid = false
        if let coherence = scenario.channelCoherenceTime, time &- lastDraw >= coherence, time >= lastDraw {
            redrawChannel(at: time)
        }
    }

    @inline(__always)
    private func pairIndex(initiator: UInt8, reflector: UInt8) -> Int {
        AirGeometry.slot(initiator, initiatorAntennaCount) * reflectorAntennaCount + AirGeometry.slot(reflector, reflectorAntennaCount)
    }

    /// Sets up the step's channel on `channel`, once per step and channel: the tap phasors at
    /// its frequency and the Doppler rate; pairs' responses follow on first use.
    private func ensureResponses(channel: UInt8) {
        if cacheValid && cachedChannel == channel { return }
        let f = Air.frequency(channel: channel)
        let t = stepStart ?? 0
        for l in 0..<realization.tapCount { tapPhasors[l] = Complex(phase: -2 * Double.pi * f * realization.delays[l]) }
        cachedDopplerRate = -2 * Double.pi * f * scenario.geometry.velocity(at: t) / Air.speedOfLight
        cachedFrequency = f
        cachedChannel = channel
        cachedStepTime = t
        responseGeneration &+= 1
        if responseGeneration == 0 {
            responseGeneration = 1
            for k in responseStamps.indices { responseStamps[k] = 0 }
        }
        cacheValid = true
    }

    /// Antenna pair `pair`'s response on the cached channel with the geometry at the step's start
    /// (after `ensureResponses`), computed on first use in the step: the engine uses at most
    /// four pairs a step, so a 4 × 4 geometry costs no more than a 2 × 2 one.
    @inline(__always)
    private func response(pair: Int) -> Complex {
        if responseStamps[pair] == responseGeneration { return cachedResponses[pair] }
        let taps = realization.tapCount
        var sum = Complex.zero
        for l in 0..<taps { sum += realization.gains[pair * taps + l] * tapPhasors[l] }
        let length = scenario.geometry.pathLength(initiatorAntenna: UInt8(pair / reflectorAntennaCount + 1),
                                                  reflectorAntenna: UInt8(pair % reflectorAntennaCount + 1), at: cachedStepTime)
            + pairDelays[pair]
        let h = sum * Complex(phase: -2 * Double.pi * cachedFrequency * length / Air.speedOfLight)
        cachedResponses[pair] = h
        responseStamps[pair] = responseGeneration
        return h
    }
}
