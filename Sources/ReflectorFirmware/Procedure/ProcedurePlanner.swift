/// Derives the steps of CS procedures exactly as both controllers must (Core 6.0 Vol 6 Part H
/// §4.1–§4.3): subevents opened by mode-0 steps, main-mode repetition steps, main-mode runs
/// with sub-mode insertion, channels from the mode-0 and #3b/#3c shuffles, and per step the
/// access addresses, antenna permutation and tone-extension presence, all from the CS DRBG.
///
/// It hands out one step at a time (`nextStep`) from fixed-size state, so a controller can
/// plan just ahead of the radio without allocating. Where the public sources disagree the
/// planner follows the choices recorded in reference/channel-sounding.md §8: channel arrays
/// restart every procedure and are shuffled lazily at the step that first needs them;
/// sub-mode steps take #3b/#3c channels and count toward Channel_Map_Repetition; the main-mode
/// run length is drawn (transaction ID 2) at the step that starts a run and carries across
/// subevents; repetition steps replay channels but draw their own addresses, permutation and
/// tone extension.
public struct ProcedurePlanner<Cipher: BlockCipher>: Sendable {
    public let configuration: CSConfiguration
    public let schedule: ProcedureSchedule
    /// N_AP, from the antenna configuration index.
    public let antennaPaths: Int
    public private(set) var filtered: FilteredChannels
    public private(set) var bits: CSRandomBits<Cipher>
    /// The procedure counter of the procedure being planned (0 for the first after security start).
    public private(set) var procedureCounter: UInt16 = 0
    private var anyProcedureStarted = false

    // State of the procedure being planned.
    private var stepCounter = 0
    private var subevent = -1
    private var subeventStart: UInt32 = 0
    private var subeventElapsed: UInt32 = 0
    private var stepsInSubevent = 0
    private var mode0Left = 0
    private var nonMode0InSubevent = 0
    private var mode0Cycle = ChannelCycle()
    private var mainCycle = ChannelCycle()
    private var ch3cState = ChannelSelection3cState()
    /// Main-mode steps left in the current run before a sub-mode step; nil when a run must be drawn.
    private var runLeft: Int?
    /// The last main-mode channels of this subevent (a ring of Main_Mode_Repetition entries).
    private var recent = InlineArray<3, UInt8>(repeating: 0)
    private var recentCount = 0
    /// Channels to replay at the start of this subevent.
    private var replay = InlineArray<3, UInt8>(repeating: 0)
    private var replayCount = 0
    private var replayPosition = 0
    private var finished = true

    /// `drbg` is the connection's DRBG as it stands; `lastProcedureCounter` is the counter of the
    /// last procedure run on the connection since CS security start (nil if none), so that
    /// procedures enabled again continue the count and the backtracking chain.
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public init(
        configuration: CSConfiguration, schedule: ProcedureSchedule, antennaPaths: Int,
        drbg: CSDRBG<Cipher>, policy: LeftoverBitPolicy = .regeneratePerStep, classification: ChannelMap = .allowed,
        lastProcedureCounter: UInt16? = nil
    ) {
        self.configuration = configuration
        self.schedule = schedule
        self.antennaPaths = min(max(antennaPaths, 1), 4)
        filtered = FilteredChannels(map: configuration.channelMap, classification: classification)
        bits = CSRandomBits(drbg: drbg, policy: policy)
        if let last = lastProcedureCounter {
            procedureCounter = last
            anyProcedureStarted = true
        }
    }

    /// Applies a new channel classification (the CS channel map update procedure) from the next
    /// procedure on; the one being planned keeps its channels.
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public mutating func setClassification(_ classification: ChannelMap) {
        filtered = FilteredChannels(map: configuration.channelMap, classification: classification)
    }

    /// Whether a procedure has begun, so that `procedureCounter` names a procedure that ran.
    public var hasBegun: Bool { anyProcedureStarted }

    /// Whether the filtered channel map has the 15 channels a procedure needs; without them
    /// every procedure ends at once (abort reason 0x2).
    public var hasSufficientChannels: Bool { filtered.isSufficient }

    /// Starts the next procedure. The first call starts procedure 0 with the DRBG as
    /// instantiated; each later call advances the procedure counter and runs backtracking
    /// resistance (Vol 6 Part E §3.1.7) first.
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public mutating func beginProcedure() {
        if anyProcedureStarted {
            procedureCounter &+= 1
            bits.drbg.resistBacktracking()
        }
        anyProcedureStarted = true
        bits.startProcedure()
        stepCounter = 0
        subevent = -1
        stepsInSubevent = 0
        subeventElapsed = 0
        mode0Cycle.reset()
        mainCycle.reset()
        ch3cState = ChannelSelection3cState()
        runLeft = nil
        recentCount = 0
        replayCount = 0
        replayPosition = 0
        mode0Left = 0
        nonMode0InSubevent = 0
        finished = !filtered.isSufficient || !subeventHoldsMinimumSteps
    }

    /// Whether a subevent can hold its mode-0 steps and one main-mode step; when it cannot, no
    /// subevent can make progress and the procedure plans no steps (configuration validation
    /// rejects such parameters before a controller gets here).
    public var subeventHoldsMinimumSteps: Bool {
        CSConfigurationValidator.minimumSubeventDuration(configuration, timing: configuration.timing, antennaPaths: antennaPaths)
            <= schedule.subeventLength
    }

    /// The next step of the current procedure, or nil once the procedure is complete.
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public mutating func nextStep() -> PlannedStep? {
        while !finished {
            if subevent < 0 || subeventIsClosed {
                openSubevent()
                continue
            }
            bits.setStep(UInt16(stepCounter))
            let kind = nextKind()
            let mode = kind == .mode0 ? CSMode.mode0 : kind == .subMode ? (configuration.subMode ?? configuration.mainMode) : configuration.mainMode
            let duration = configuration.timing.stepDuration(mode: mode, antennaPaths: antennaPaths, phy: configuration.csSyncPHY, rttType: configuration.rttType)
            let needsMainChannel = kind == .main || kind == .subMode
            if needsMainChannel && mainCycle.isExhausted && mainCycle.passes >= Int(configuration.channelMapRepetition) {
                finished = true  // Channel_Map_Repetition passes are done.
                return nil
            }
            if stepCounter >= ProcedureLimits.maxStepsPerProcedure {
                finished = true
                return nil
            }
            if stepsInSubevent >= ProcedureLimits.maxStepsPerSubevent || subeventElapsed + duration > schedule.subeventLength {
                closeSubevent()
                continue
            }
            if needsMainChannel && mainCycle.isExhausted {
                refillMainCycle()
                if mainCycle.isExhausted {
                    finished = true  // A #3c sequence with no channel of the map in it.
                    return nil
                }
            }
            return takeStep(kind: kind, mode: mode, duration: duration)
        }
        return nil
    }

    private var subeventIsClosed: Bool { mode0Left < 0 }

    private mutating func closeSubevent() {
        if mode0Left > 0 || nonMode0InSubevent == 0 {
            // Not even the mode-0 steps and one more step fit: the subevent length is too short
            // for this configuration, and no later subevent could do better.
            finished = true
        }
        mode0Left = -1
    }

    private mutating func openSubevent() {
        let next = subevent + 1
        let start = UInt32(next) * schedule.subeventInterval
        guard next < ProcedureLimits.maxSubeventsPerProcedure,
            stepCounter < ProcedureLimits.maxStepsPerProcedure,
            UInt64(start) + UInt64(schedule.subeventLength) <= UInt64(schedule.maxProcedureLength),
            !(mainCycle.isExhausted && mainCycle.passes >= Int(configuration.channelMapRepetition))
        else {
            finished = true
            return
        }
        if next > 0 {
            // Replay the last Main_Mode_Repetition main-mode channels of the previous subevent, oldest first.
            replayCount = recentCount
            for i in 0..<recentCount { replay[i] = recent[i] }
        }
        replayPosition = 0
        recentCount = 0
        subevent = next
        subeventStart = start
        subeventElapsed = 0
        stepsInSubevent = 0
        nonMode0InSubevent = 0
        mode0Left = Int(configuration.mode0Steps)
        bits.startSubevent()
    }

    /// The kind of the next step; draws the main-mode run length when a run starts.
    private mutating func nextKind() -> StepKind {
        if mode0Left > 0 { return .mode0 }
        if replayPosition < replayCount { return .repetition }
        guard configuration.subMode != nil else { return .main }
        if runLeft == nil {
            let lo = Int(configuration.minMainModeSteps)
            let hi = max(Int(configuration.maxMainModeSteps), lo)
            runLeft = lo + bits.hr1(hi - lo + 1, .subModeInsertion)
        }
        return runLeft! > 0 ? .main : .subMode
    }

    private mutating func takeStep(kind: StepKind, mode: CSMode, duration: UInt32) -> PlannedStep {
        let channel: UInt8
        switch kind {
        case .mode0:
            if mode0Cycle.isExhausted { mode0Cycle.shuffle(filtered, .mode0ChannelSelection, &bits) }
            channel = mode0Cycle.next()
            mode0Left -= 1
        case .repetition:
            channel = replay[replayPosition]
            replayPosition += 1
        case .main, .subMode:
            channel = mainCycle.next()
        }
        var step = PlannedStep(
            index: UInt16(stepCounter), subevent: UInt8(subevent), kind: kind, mode: mode, channel: channel,
            accessAddresses: nil, antennaPermutationIndex: 0, toneExtension: .none, soundingMarker: nil,
            startMicroseconds: subeventStart + subeventElapsed, durationMicroseconds: duration)
        if mode.hasCSSync { step.accessAddresses = AccessAddressPair.draw(&bits) }
        if mode.hasTones {
            step.antennaPermutationIndex = UInt8(bits.hr1(AntennaPermutation.count(antennaPaths: antennaPaths), .antennaPermutation))
            // First bit: the initiator's extension tone; second: the reflector's.
            step.toneExtension = ToneExtension(rawValue: UInt8(truncatingIfNeeded: bits.bits(2, .toneExtensionPresence).bitSwapped2))!
        }
        if mode == .mode1 || mode == .mode3 { step.soundingMarker = SoundingMarker.draw(configuration.rttType, &bits) }
        if kind != .mode0 {
            nonMode0InSubevent += 1
            if mode == configuration.mainMode && kind != .subMode { remember(channel) }
        }
        if kind == .main { runLeft? -= 1 }
        if kind == .subMode { runLeft = nil }
        stepCounter += 1
        stepsInSubevent += 1
        subeventElapsed += duration
        return step
    }

    private mutating func refillMainCycle() {
        switch configuration.channelSelection {
        case .algorithm3b:
            mainCycle.shuffle(filtered, .channelSelection, &bits)
        case .algorithm3c(let shape, let jump):
            // Each channel-map repetition is one #3c sequence; the state carries the sweep offset.
            mainCycle.load(ChannelSelection3c.generate(
                shape: shape, jump: min(max(jump, 2), 8), channels: filtered,
                repetitions: max(configuration.channelMapRepetition, 1), state: &ch3cState, bits: &bits))
        }
    }

    private mutating func remember(_ channel: UInt8) {
        let depth = Int(min(configuration.mainModeRepetition, 3))
        guard depth > 0 else { return }
        if recentCount < depth {
            recent[recentCount] = channel
            recentCount += 1
        } else {
            for i in 0..<(depth - 1) { recent[i] = recent[i + 1] }
            recent[depth - 1] = channel
        }
    }
}

extension UInt32 {
    /// Swaps the two low bits: the first-drawn bit (initiator) becomes bit 0.
    @inline(__always) fileprivate var bitSwapped2: UInt32 { (self >> 1) & 1 | (self & 1) << 1 }
}
