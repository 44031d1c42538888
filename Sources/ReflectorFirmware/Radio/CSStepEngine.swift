/// Runs planned CS steps on a radio and reports what the step measured, for either role
/// (Core 6.0 Vol 6 Part H §4.x): the spec's steps are symmetric, so the initiator controller of
/// the emulator runs this same code with role = initiator.
///
/// - Mode 0: the initiator sends CS_SYNC; the reflector answers with CS_SYNC and the T_FM tone,
///   from which the initiator measures the frequency offset. Both report packet quality, RSSI
///   and antenna.
/// - Mode 1: CS_SYNC both ways; each side reports its ToA/ToD difference in 0.5 ns.
/// - Mode 2: the initiator's tones on each antenna path in the order the permutation gives,
///   T_SW apart, plus the extension slot; then the reflector's. Each side measures a PCT and
///   tone quality per slot. With inline PCT transfer (Core 6.3) the reflector sends each tone
///   rotated by the phase it just measured on that frequency and path, so the initiator's PCT
///   alone carries the round-trip phase.
/// - Mode 3: mode 1 and mode 2 in one step.
///
/// Allocation-free: results are fixed-size values.
public struct CSStepEngine: Sendable {
    public let role: CSRole
    public let configuration: CSConfiguration
    public let antennaConfiguration: AntennaConfiguration
    /// The antenna for CS_SYNC packets (Set Default Settings' CS_SYNC_Antenna_Selection).
    public var syncAntenna: UInt8

    public init(configuration: CSConfiguration, antennaConfiguration: AntennaConfiguration, syncAntenna: UInt8 = 1) {
        role = configuration.role
        self.configuration = configuration
        self.antennaConfiguration = antennaConfiguration
        self.syncAntenna = syncAntenna
        antennaPaths = antennaConfiguration.antennaPaths
    }

    /// N_AP, from the antenna configuration (kept: every tone slot asks for it).
    public let antennaPaths: Int

    /// Runs `step` on `radio` with the step starting at `start` (µs on the controller clock).
    /// The reflector receives, then answers; the initiator sends, then measures the answer.
    public func run<Radio: RadioPort>(_ step: PlannedStep, at start: UInt64, radio: inout Radio) -> SubeventStep {
        if role == .initiator {
            transmit(step, at: start, radio: &radio)
            return receive(step, at: start, radio: &radio)
        }
        return respond(step, at: start, radio: &radio)
    }

    /// The initiator's transmissions of a step: CS_SYNC and/or its tone group. A loopback driver
    /// calls this, then the reflector's `run`, then `receive`, because within a step everything
    /// the initiator sends precedes everything it measures.
    public func transmit<Radio: RadioPort>(_ step: PlannedStep, at start: UInt64, radio: inout Radio) {
        let t = timeline(step)
        radio.tune(channel: step.channel, at: start)
        if step.mode.hasCSSync {
            radio.antennaSwitch.select(antenna: syncAntenna, at: start)
            radio.transmitSync(accessAddress: (step.accessAddresses ?? .zero).initiator, phy: configuration.csSyncPHY,
                               sequenceBits: sequenceBits(step.mode), at: start + UInt64(t.initiatorSync))
        }
        if step.mode.hasTones {
            transmitTones(step, measured: InlineArray(repeating: .zero), antennas(step), start + UInt64(t.initiatorTones), t, &radio)
        }
    }

    /// The initiator's measurements of a step, after `transmit`: the reflector's tones, CS_SYNC
    /// and (mode 0) frequency-measurement tone.
    public func receive<Radio: RadioPort>(_ step: PlannedStep, at start: UInt64, radio: inout Radio) -> SubeventStep {
        let t = timeline(step)
        var tones = ToneStepData(antennaPermutationIndex: step.antennaPermutationIndex, antennaPaths: antennaPaths)
        if step.mode.hasTones {
            var measured = InlineArray<5, IQSample>(repeating: .zero)
            receiveTones(step, into: &tones, measured: &measured, antennas(step), start + UInt64(t.reflectorTones), t, &radio)
        }
        var rx = SyncReception.missed
        if step.mode.hasCSSync {
            radio.antennaSwitch.select(antenna: syncAntenna, at: start + UInt64(t.reflectorSync))
            rx = radio.receiveSync(accessAddress: (step.accessAddresses ?? .zero).reflector, phy: configuration.csSyncPHY,
                                   sequenceBits: sequenceBits(step.mode), at: start + UInt64(t.reflectorSync))
        }
        let data: StepData
        switch step.mode {
        case .mode0:
            var offset = Mode0StepData.notAvailableFrequencyOffset
            if rx.detected {
                let tone = radio.receiveTone(at: start + UInt64(t.frequencyMeasurementTone), duration: CSTiming.frequencyMeasurement)
                offset = CSStepEngine.frequencyOffsetField(ppm: tone.frequencyOffsetPPM)
            }
            data = .mode0(Mode0StepData(packetQuality: rx.packetQuality, packetRSSI: rx.detected ? rx.rssi : 0x7F,
                                        packetAntenna: syncAntenna, measuredFrequencyOffset: offset))
        case .mode1: data = .mode1(syncResult(rx, timeDifference: rx.arrivalOffsetHalfNanoseconds))
        case .mode2: data = .mode2(tones)
        case .mode3: data = .mode3(syncResult(rx, timeDifference: rx.arrivalOffsetHalfNanoseconds), tones)
        }
        return SubeventStep(channel: step.channel, data: data)
    }

    /// The reflector's whole step: measure what the initiator sent, then answer on schedule.
    private func respond<Radio: RadioPort>(_ step: PlannedStep, at start: UInt64, radio: inout Radio) -> SubeventStep {
        let t = timeline(step)
        let aa = step.accessAddresses ?? .zero
        radio.tune(channel: step.channel, at: start)
        var rx = SyncReception.missed
        if step.mode.hasCSSync {
            radio.antennaSwitch.select(antenna: syncAntenna, at: start)
            rx = radio.receiveSync(accessAddress: aa.initiator, phy: configuration.csSyncPHY,
                                   sequenceBits: sequenceBits(step.mode), at: start + UInt64(t.initiatorSync))
        }
        var tones = ToneStepData(antennaPermutationIndex: step.antennaPermutationIndex, antennaPaths: antennaPaths)
        var measured = InlineArray<5, IQSample>(repeating: .zero)
        if step.mode.hasTones {
            let slots = antennas(step)
            receiveTones(step, into: &tones, measured: &measured, slots, start + UInt64(t.initiatorTones), t, &radio)
            transmitTones(step, measured: measured, slots, start + UInt64(t.reflectorTones), t, &radio)
        }
        // Mode 0 answers only a CS_SYNC that arrived; modes 1 and 3 answer on schedule.
        if step.mode.hasCSSync && (rx.detected || step.mode != .mode0) {
            radio.antennaSwitch.select(antenna: syncAntenna, at: start + UInt64(t.reflectorSync))
            radio.transmitSync(accessAddress: aa.reflector, phy: configuration.csSyncPHY,
                               sequenceBits: sequenceBits(step.mode), at: start + UInt64(t.reflectorSync))
            if step.mode == .mode0 {
                radio.transmitTone(rotation: .one, at: start + UInt64(t.frequencyMeasurementTone), duration: CSTiming.frequencyMeasurement)
            }
        }
        let data: StepData
        switch step.mode {
        case .mode0: data = .mode0(Mode0StepData(packetQuality: rx.packetQuality, packetRSSI: rx.detected ? rx.rssi : 0x7F, packetAntenna: syncAntenna))
        case .mode1: data = .mode1(syncResult(rx, timeDifference: -rx.arrivalOffsetHalfNanoseconds))
        case .mode2: data = .mode2(tones)
        case .mode3: data = .mode3(syncResult(rx, timeDifference: -rx.arrivalOffsetHalfNanoseconds), tones)
        }
        return SubeventStep(channel: step.channel, data: data)
    }

    private func timeline(_ step: PlannedStep) -> StepTimeline {
        StepTimeline(mode: step.mode, timing: configuration.timing, antennaPaths: antennaPaths,
                     phy: configuration.csSyncPHY, rttType: configuration.rttType)
    }

    private func sequenceBits(_ mode: CSMode) -> Int { mode == .mode0 ? 0 : configuration.rttType.sequenceOctets * 8 }

    /// Mode-1 fields of a CS_SYNC exchange. ToA_ToD (initiator) is when the reflector's packet
    /// arrived against when it was due; ToD_ToA (reflector) is when it sent against when the
    /// initiator's packet arrived, the negated arrival offset since it sends on its own schedule.
    /// Their difference is the round trip, 2·ToF, in 0.5 ns.
    private func syncResult(_ rx: SyncReception, timeDifference: Int32) -> Mode1StepData {
        let toaTod = rx.detected && timeDifference > Int32(Int16.min) && timeDifference <= Int32(Int16.max)
            ? Int16(timeDifference) : Mode1StepData.notAvailableToaTod
        return Mode1StepData(packetQuality: rx.packetQuality, packetNADM: 0xFF, packetRSSI: rx.detected ? rx.rssi : 0x7F,
                             toaTod: toaTod, packetAntenna: syncAntenna)
    }

    // MARK: Tone groups

    /// Measures the peer's N_AP + 1 tone slots of a group starting at `group`: for each slot the
    /// antenna the permutation gives, switched T_SW before the T_PM measurement.
    private func receiveTones<Radio: RadioPort>(
        _ step: PlannedStep, into result: inout ToneStepData, measured: inout InlineArray<5, IQSample>,
        _ antennas: InlineArray<5, UInt8>, _ group: UInt64, _ t: StepTimeline, _ radio: inout Radio
    ) {
        let n = antennaPaths
        let expectExtension = step.toneExtension.expectsTone(receiving: role)
        for slot in 0...n {
            let slotStart = group + UInt64(t.slotStart(slot, group: 0))
            radio.antennaSwitch.select(antenna: antennas.span[slot], at: slotStart)
            let tone = radio.receiveTone(at: slotStart + UInt64(t.switchTime), duration: t.toneDuration)
            measured[slot] = tone.iq
            let slotKind: ToneExtensionSlot = slot < n ? .notExtensionSlot : (expectExtension ? .toneExpected : .toneNotExpected)
            result[slot] = ToneMeasurement(pct: PhaseCorrectionTerm(i: tone.iq.i, q: tone.iq.q),
                                           quality: ToneQualityIndicator(quality: tone.quality, extensionSlot: slotKind))
        }
        // The extension slot repeats the last path: without a tone in it, that path's phase stands in.
        if !expectExtension {
            let last = measured.span[n - 1]
            measured[n] = last
        }
    }

    /// Sends this side's tone group; the extension slot only when the DRBG said so. Under inline
    /// PCT transfer the reflector rotates each tone by the phase measured in the same slot.
    private func transmitTones<Radio: RadioPort>(
        _ step: PlannedStep, measured: InlineArray<5, IQSample>, _ antennas: InlineArray<5, UInt8>,
        _ group: UInt64, _ t: StepTimeline, _ radio: inout Radio
    ) {
        let n = antennaPaths
        let inline = role == .reflector && configuration.inlinePCT
        let sendExtension = step.toneExtension.transmits(role)
        for slot in 0...n {
            let slotStart = group + UInt64(t.slotStart(slot, group: 0))
            radio.antennaSwitch.select(antenna: antennas.span[slot], at: slotStart)
            if slot == n && !sendExtension { continue }
            radio.transmitTone(rotation: inline ? measured.span[slot].unitPhasor : .one, at: slotStart + UInt64(t.switchTime), duration: t.toneDuration)
        }
    }

    /// This device's antenna for each tone slot of a step (N_AP + 1, the extension slot last),
    /// worked out once: both of a step's tone groups visit the same antennas.
    private func antennas(_ step: PlannedStep) -> InlineArray<5, UInt8> {
        var out = InlineArray<5, UInt8>(repeating: 1)
        for slot in 0...antennaPaths {
            let path = AntennaPermutation.path(antennaPaths: antennaPaths, index: Int(step.antennaPermutationIndex), slot: slot) ?? 0
            out[slot] = AntennaPath(index: path, configuration: antennaConfiguration).antenna(for: role)
        }
        return out
    }

    /// Measured_Freq_Offset: 15-bit signed in 0.01 ppm, ±100 ppm, 0xC000 when out of range.
    static func frequencyOffsetField(ppm: Float) -> UInt16 {
        guard ppm == ppm, ppm >= -100, ppm <= 100 else { return Mode0StepData.notAvailableFrequencyOffset }
        let hundredths = Int16((ppm * 100).rounded())
        return UInt16(bitPattern: hundredths) & 0x7FFF
    }
}
