import Testing
@testable import ReflectorFirmware

/// The step plan against hand-worked cases built on the spec's sample DRBG (reference §3.8).
struct ProcedurePlannerTests {
    static func sampleDRBG() -> CSDRBG<AES128> {
        CSDRBG(iv: CryptoTests.iv, instantiationNonce: CryptoTests.inNonce, personalization: CryptoTests.pv)
    }

    /// Channels 2...20: the 19-channel map of the spec's cr1 sample.
    static let map19: ChannelMap = {
        var m = ChannelMap.none
        for ch in 2...20 { m.insert(ch) }
        return m
    }()

    static func planner(_ config: CSConfiguration, antennaPaths: Int = 1, subeventLength: UInt32 = 1_000_000, interval: UInt32? = nil, maxProcedure: UInt32 = 40_000_000) -> ProcedurePlanner<AES128> {
        ProcedurePlanner(
            configuration: config,
            schedule: ProcedureSchedule(subeventLength: subeventLength, subeventInterval: interval, maxProcedureLength: maxProcedure),
            antennaPaths: antennaPaths, drbg: sampleDRBG())
    }

    /// With three mode-0 steps, the mode-0 shuffle is drawn at step 0 and the #3b shuffle at
    /// step 3: both must be the spec's cr1 sample shuffles, consumed in order.
    @Test func nineteenChannelMapUsesSampleShuffles() {
        var p = Self.planner(CSConfiguration(channelMap: Self.map19))
        let steps = p.planNextProcedure()
        #expect(steps.count == 3 + 19)
        #expect(steps.prefix(3).map(\.channel) == [11, 7, 14])
        #expect(steps.prefix(3).allSatisfy { $0.mode == .mode0 && $0.kind == .mode0 })
        #expect(steps.dropFirst(3).map(\.channel) == [6, 12, 5, 10, 3, 2, 18, 17, 16, 8, 11, 7, 19, 4, 13, 20, 9, 15, 14])
        #expect(steps[0].accessAddresses == AccessAddressPair(initiator: 0x6C37_6AB8, reflector: 0xF079_BC3A))
        #expect(steps[1].accessAddresses == AccessAddressPair(initiator: 0x011C_AE4E, reflector: 0xD06A_CDDA))
        #expect(steps[2].accessAddresses == AccessAddressPair(initiator: 0x6406_1214, reflector: 0x2894_2F38))
        #expect(steps.dropFirst(3).allSatisfy { $0.mode == .mode2 && $0.accessAddresses == nil })
        #expect(steps.map(\.index) == (0..<22).map(UInt16.init))
    }

    /// Channel_Map_Repetition 2 runs the map twice, the second pass reshuffled at the step that needs it.
    @Test func channelMapRepetitionReshuffles() {
        var p = Self.planner(CSConfiguration(channelMap: Self.map19, channelMapRepetition: 2))
        let steps = p.planNextProcedure()
        let main = steps.filter { $0.kind == .main }
        #expect(main.count == 38)
        #expect(Set(main.prefix(19).map(\.channel)) == Set((2...20).map(UInt8.init)))
        #expect(Set(main.suffix(19).map(\.channel)) == Set((2...20).map(UInt8.init)))
        var bits = CSRandomBits(drbg: Self.sampleDRBG())
        var second = InlineArray<72, UInt8>(repeating: 0)
        for i in 0..<19 { second[i] = UInt8(i + 2) }
        bits.setStep(22)
        bits.cr1(&second, count: 19, .channelSelection)
        #expect(main.suffix(19).map(\.channel) == (0..<19).map { second[$0] })
    }

    /// Step timing: each step starts where the previous ended; a subevent holds only whole steps.
    @Test func subeventsHoldWholeStepsAndTimesAdd() {
        let timing = CSTiming()
        let mode0 = timing.stepDuration(mode: .mode0, antennaPaths: 1, phy: .le1M, rttType: .accessAddressOnly)
        let mode2 = timing.stepDuration(mode: .mode2, antennaPaths: 1, phy: .le1M, rttType: .accessAddressOnly)
        let length = 3 * mode0 + 10 * mode2 + mode2 / 2
        var p = Self.planner(CSConfiguration(mainModeRepetition: 0, channelMap: Self.map19), subeventLength: length, interval: 10_000)
        let steps = p.planNextProcedure()
        let first = steps.filter { $0.subevent == 0 }
        #expect(first.count == 13)
        #expect(first.last!.startMicroseconds + first.last!.durationMicroseconds <= length)
        for (a, b) in zip(first, first.dropFirst()) { #expect(b.startMicroseconds == a.startMicroseconds + a.durationMicroseconds) }
        let second = steps.filter { $0.subevent == 1 }
        #expect(second.first!.startMicroseconds == 10_000)
        #expect(second.prefix(3).allSatisfy { $0.kind == .mode0 })
        #expect(steps.filter { $0.kind == .main }.count == 19)
    }

    /// Main_Mode_Repetition: every subevent after the first replays the previous subevent's last
    /// main-mode channels, right after its mode-0 steps.
    @Test func repetitionStepsReplayPreviousChannels() {
        let timing = CSTiming()
        let mode0 = timing.stepDuration(mode: .mode0, antennaPaths: 1, phy: .le1M, rttType: .accessAddressOnly)
        let mode2 = timing.stepDuration(mode: .mode2, antennaPaths: 1, phy: .le1M, rttType: .accessAddressOnly)
        var p = Self.planner(CSConfiguration(mainModeRepetition: 2, channelMap: Self.map19), subeventLength: 3 * mode0 + 8 * mode2)
        let steps = p.planNextProcedure()
        let subevents = Int(steps.last!.subevent) + 1
        #expect(subevents >= 3)
        for s in 1..<subevents {
            let previousMain = steps.filter { Int($0.subevent) == s - 1 && $0.kind != .mode0 && $0.mode == .mode2 }
            let this = steps.filter { Int($0.subevent) == s }
            #expect(this.prefix(3).allSatisfy { $0.kind == .mode0 })
            let reps = this.dropFirst(3).prefix { $0.kind == .repetition }
            #expect(reps.map(\.channel) == previousMain.suffix(2).map(\.channel))
            #expect(reps.allSatisfy { $0.mode == .mode2 })
        }
        // Repetition steps do not use up the channel map: every channel is still sounded once by a main step.
        #expect(steps.filter { $0.kind == .main }.map(\.channel).sorted() == (2...20).map(UInt8.init))
    }

    /// Sub-mode insertion: runs of N main-mode steps, N = min + hr1(max − min + 1) drawn with
    /// transaction ID 2 at the run's first step, each followed by one sub-mode step.
    @Test func subModeInsertion() {
        let config = CSConfiguration(mainMode: .mode2, subMode: .mode1, minMainModeSteps: 2, maxMainModeSteps: 6, channelMap: Self.map19)
        var p = Self.planner(config)
        let steps = p.planNextProcedure()
        var check = CSRandomBits(drbg: Self.sampleDRBG())
        var i = 3
        var runs = 0
        while i < steps.count {
            check.setStep(steps[i].index)
            let n = 2 + check.hr1(5, .subModeInsertion)
            let run = steps[i...].prefix(n)
            #expect(run.allSatisfy { $0.kind == .main && $0.mode == .mode2 })
            i += run.count
            if i < steps.count {
                #expect(steps[i].kind == .subMode && steps[i].mode == .mode1)
                #expect(steps[i].accessAddresses != nil)
                i += 1
            }
            runs += 1
        }
        #expect(runs >= 3)
        #expect(steps.filter { $0.kind != .mode0 }.count == 19)
    }

    /// Every N_AP draws a permutation index below N_AP! and tone-extension presence; N_AP = 1 draws no permutation bits.
    @Test(arguments: [(0, 1), (1, 2), (2, 3), (3, 4), (7, 4)])
    func antennaPermutationForEveryPathCount(aci: UInt8, paths: Int) {
        let n = AntennaConfiguration(index: aci)!.antennaPaths
        #expect(n == paths)
        var p = Self.planner(CSConfiguration(), antennaPaths: n)
        let steps = p.planNextProcedure().filter { $0.mode == .mode2 }
        #expect(steps.count == 72)
        let limit = AntennaPermutation.count(antennaPaths: n)
        #expect(steps.allSatisfy { Int($0.antennaPermutationIndex) < limit })
        if n > 1 { #expect(Set(steps.map(\.antennaPermutationIndex)).count >= min(limit, 20)) } else { #expect(steps.allSatisfy { $0.antennaPermutationIndex == 0 }) }
        #expect(Set(steps.map(\.toneExtension.rawValue)) == [0, 1, 2, 3])
        // The index is hr1(N_AP!) with transaction ID 4 at the step's counter.
        var check = CSRandomBits(drbg: Self.sampleDRBG())
        for s in steps.prefix(10) {
            check.setStep(s.index)
            #expect(Int(s.antennaPermutationIndex) == check.hr1(limit, .antennaPermutation))
            let twoBits = check.bits(2, .toneExtensionPresence)
            #expect(s.toneExtension.transmits(.initiator) == (twoBits & 2 != 0))
            #expect(s.toneExtension.transmits(.reflector) == (twoBits & 1 != 0))
        }
    }

    @Test func limitsCapStepsAndSubevents() {
        // Channel map repetition 4 of 72 channels would need 288 non-mode-0 steps: capped at 256.
        var p = Self.planner(CSConfiguration(channelMapRepetition: 4))
        let steps = p.planNextProcedure()
        #expect(steps.count == 256)
        // Tiny subevents: 3 mode-0 steps and one mode-2 step each, so the 32-subevent cap binds.
        let t = CSTiming()
        let len = 3 * t.stepDuration(mode: .mode0, antennaPaths: 1, phy: .le1M, rttType: .accessAddressOnly) + t.stepDuration(mode: .mode2, antennaPaths: 1, phy: .le1M, rttType: .accessAddressOnly)
        var q = Self.planner(CSConfiguration(), subeventLength: len)
        let small = q.planNextProcedure()
        #expect(small.count == 32 * 4)
        #expect(small.last!.subevent == 31)
        // Max_Procedure_Len: only subevents that end within it run.
        var r = Self.planner(CSConfiguration(), subeventLength: len, interval: 10_000, maxProcedure: 5 * 10_000 + len)
        #expect(r.planNextProcedure().last!.subevent == 5)
        // Too short a subevent for the mode-0 steps: no steps at all.
        var z = Self.planner(CSConfiguration(), subeventLength: 900)
        #expect(z.planNextProcedure().isEmpty)
    }

    @Test func procedureCounterRunsBacktracking() {
        var p = Self.planner(CSConfiguration())
        let first = p.planNextProcedure()
        #expect(p.procedureCounter == 0)
        let second = p.planNextProcedure()
        #expect(p.procedureCounter == 1)
        var expected = Self.sampleDRBG()
        expected.resistBacktracking()
        #expect(p.bits.drbg.key == expected.key && p.bits.drbg.nonce == expected.nonce)
        #expect(first.map(\.channel) != second.map(\.channel))
        // A fresh planner derives the same two procedures: the plan is deterministic.
        var again = Self.planner(CSConfiguration())
        #expect(again.planNextProcedure() == first)
        #expect(again.planNextProcedure() == second)
    }

    @Test func insufficientChannelsPlanNothing() {
        var m = ChannelMap.none
        for ch in 2...15 { m.insert(ch) }
        var p = Self.planner(CSConfiguration(channelMap: m))
        #expect(!p.hasSufficientChannels)
        #expect(p.planNextProcedure().isEmpty)
    }
}

/// Plans with channel selection algorithm #3c.
struct ProcedurePlanner3cTests {
    /// Main-mode steps take one #3c sequence per channel-map repetition, generated at the step
    /// that first needs it, and the procedure ends when the repetitions are used up.
    @Test(arguments: [Ch3cShape.hat, .x], [UInt8(2), 5, 8])
    func mainStepsFollowTheSequence(shape: Ch3cShape, jump: UInt8) {
        let config = CSConfiguration(channelMapRepetition: 2, channelSelection: .algorithm3c(shape: shape, jump: jump))
        var p = ProcedurePlannerTests.planner(config, subeventLength: 4_000_000)
        let steps = p.planNextProcedure()
        let main = steps.filter { $0.kind == .main }
        var bits = CSRandomBits(drbg: ProcedurePlannerTests.sampleDRBG())
        var state = ChannelSelection3cState()
        bits.setStep(3)
        let first = ChannelSelection3c.generate(shape: shape, jump: jump, channels: FilteredChannels(map: .allowed), repetitions: 2, state: &state, bits: &bits)
        bits.setStep(UInt16(3 + first.count))
        let second = ChannelSelection3c.generate(shape: shape, jump: jump, channels: FilteredChannels(map: .allowed), repetitions: 2, state: &state, bits: &bits)
        let expected = Array(first) + Array(second)
        #expect(main.map(\.channel) == expected)
        // More than 160 steps: a second subevent, opened by its own mode-0 steps.
        #expect(steps.count == expected.count + 3 * (Int(steps.last!.subevent) + 1))
        #expect(steps.filter { $0.subevent == 0 }.count == min(steps.count, 160))
    }
}
