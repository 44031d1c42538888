@testable import ReflectorFirmware
import TestSupport
import Testing

/// One packet of a CS codec differential test against a foreign implementation (RootCanal's
/// `rootcanal.packets.hci`, `CSCodecsRootCanalTests`; Bumble's `bumble.hci`,
/// `CSCodecsBumbleTests`): our packet, the oracle's constructor for the same values, the class
/// the oracle must parse ours as, what it must read from it, and whether our decoder reads the
/// oracle's own octets back to the very value we encoded.
struct CSOracleCase: Sendable {
    var name: String
    var ours: HCIPacket
    /// The oracle's constructor for the same packet (Python; empty: none).
    var python: String
    /// The class the oracle must parse ours as.
    var type: String
    /// A Python expression over `c` (the oracle's parse of ours) and what its `repr` must be.
    var fields: String = ""
    var expected: String = ""
    /// Our decoder on the oracle's packet: true when it reads the value `ours` was encoded from
    /// (and, for a command's answer, when our declaration of the answer agrees).
    var decodes: (@Sendable (HCIPacket) -> Bool)? = nil
    /// Set where the oracle's own packet is expected to differ from ours (a pinned
    /// disagreement): then `built` must be this (H4 hex), and `decodes` is not asked.
    var builtDiffers: String? = nil
    /// Set where the oracle writes ours back changed (a pinned disagreement): then its
    /// serialization of ours must be this (H4 hex), or start with it if it is "ERR …" (the
    /// oracle cannot parse ours).
    var parsedAs: String? = nil

    /// An LE Meta subevent whose decoder needs no context.
    static func subevent<E: LEMetaSubevent>(_ name: String, _ value: E, python: String, type: String, fields: String = "", expected: String = "") -> Self {
        Self(name: name, ours: value.packet, python: python, type: type, fields: fields, expected: expected,
             decodes: { (try? E.decode(packet: $0)) == value })
    }

    /// LE CS Subevent Result or Continue, decoded with the reporting role and whether mode-1/3
    /// steps carry PCT1/PCT2 (Core 6.0 Vol 4 Part E §7.7.65.44).
    static func result<E: SubeventResultParameters>(_ name: String, _ value: E, role: CSRole, sequencePCT: Bool, python: String, type: String,
                                                    fields: String = "", expected: String = "") -> Self {
        Self(name: name, ours: value.packet, python: python, type: type, fields: fields, expected: expected,
             decodes: { (try? E.decode(packet: $0, role: role, sequencePCT: sequencePCT)) == value })
    }

    /// LE CS Read Remote Supported Capabilities Complete, v1 (0x2C) or v2 (0x38).
    static func remoteCapabilities(_ name: String, _ value: LECSReadRemoteSupportedCapabilitiesComplete, python: String, type: String,
                                   fields: String = "", expected: String = "") -> Self {
        Self(name: name, ours: value.packet, python: python, type: type, fields: fields, expected: expected,
             decodes: { (try? LECSReadRemoteSupportedCapabilitiesComplete.decode(packet: $0)) == value })
    }

    /// A command packet.
    static func command<C: HCICommand>(_ value: C, python: String, type: String, fields: String = "", expected: String = "") -> Self {
        Self(name: "\(C.name)", ours: value.packet, python: python, type: type, fields: fields, expected: expected,
             decodes: { (try? C.decode(packet: $0)) == value })
    }

    /// Command Complete of `C` with `returned`, where our declaration says Command Complete
    /// (`C.answer`) with these return parameters (`C.ReturnParameters`, Core 6.0 Vol 4 Part E
    /// §7.7.14).
    static func complete<C: HCICommand>(_: C.Type, _ returned: C.ReturnParameters, python: String, type: String,
                                        fields: String = "", expected: String = "") -> Self where C.ReturnParameters: HCIParameters {
        Self(name: "Command Complete of \(C.name)", ours: CommandCompleteEvent(opcode: C.opcode, returnParameters: returned.encode()).packet,
             python: python, type: type, fields: fields, expected: expected,
             decodes: { p in
                 guard C.answer == .complete, let e = try? CommandCompleteEvent.decode(packet: p), e.opcode == C.opcode else { return false }
                 return (try? C.ReturnParameters.decode(e.returnParameters)) == returned
             })
    }

    /// Command Status of `C`, where our declaration says Command Status (§7.7.15).
    static func status<C: HCICommand>(_: C.Type, _ status: HCIStatus = .success, python: String, type: String,
                                      fields: String = "", expected: String = "") -> Self {
        let event = CommandStatusEvent(status: status, opcode: C.opcode)
        return Self(name: "Command Status of \(C.name)", ours: event.packet, python: python, type: type, fields: fields, expected: expected,
                    decodes: { C.answer == .status && (try? CommandStatusEvent.decode(packet: $0)) == event })
    }

    /// A pinned disagreement: the oracle's constructor builds `built` (H4 hex), not ours.
    func differing(built: String) -> Self {
        var c = self
        c.builtDiffers = built
        return c
    }

    /// A pinned disagreement: the oracle writes ours back as `parsed` (H4 hex).
    func writtenBack(as parsed: String) -> Self {
        var c = self
        c.parsedAs = parsed
        return c
    }

    /// The same case under another name (names key the answers).
    func named(_ name: String) -> Self {
        var c = self
        c.name = name
        return c
    }
}

/// What an oracle said about one case (RootCanalOracle's and BumbleOracle's answers alike).
struct CSOracleAnswer: Sendable {
    var built: String, parsed: String, type: String, fields: String
}

enum CSOracleCheck {
    /// The checks of every case against its answer: the oracle parses ours as the right class
    /// and writes it back unchanged, reads the fields we meant, and builds the same octets (or
    /// the pinned other ones), which our decoder reads back to our value.
    static func check(_ cases: [CSOracleCase], _ answers: [String: CSOracleAnswer], oracle: String,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        for c in cases {
            guard let a = answers[c.name] else {
                Issue.record("\(c.name): no answer from \(oracle)", sourceLocation: sourceLocation)
                continue
            }
            let ours = Hex.string(c.ours.h4Bytes)
            #expect(a.type == c.type, "\(c.name): \(oracle) parsed ours as \(a.type)", sourceLocation: sourceLocation)
            // A pinned parse error is compared by its start ("ERR "): the message is the oracle's.
            let parsedOK = c.parsedAs.map { $0.hasPrefix("ERR") ? a.parsed.hasPrefix($0) : a.parsed == $0 } ?? (a.parsed == ours)
            #expect(parsedOK, "\(c.name): \(oracle) wrote ours back as \(a.parsed)", sourceLocation: sourceLocation)
            if !c.fields.isEmpty { #expect(a.fields == c.expected, "\(c.name): \(oracle) read \(a.fields)", sourceLocation: sourceLocation) }
            guard !c.python.isEmpty else { continue }
            if let other = c.builtDiffers {
                #expect(a.built == other, "\(c.name): \(oracle) built \(a.built)", sourceLocation: sourceLocation)
                continue
            }
            #expect(a.built == ours, "\(c.name): \(oracle) built \(a.built)", sourceLocation: sourceLocation)
            if let decodes = c.decodes {
                let built = try? HCIPacket(h4: Hex.bytes(a.built))
                #expect(built.map(decodes) == true, "\(c.name): our decoder does not read \(oracle)'s \(a.built) as the value", sourceLocation: sourceLocation)
            }
        }
    }

    /// The events of `CSOracleVectors.longSubevent` as cases, each built by the oracle from
    /// `python(event, index)`; `joins` then checks that our reassembler joins the oracle's
    /// packets into the whole subevent.
    static func split(python: (SubeventResultEvent, Int) -> String, result: String, continuation: String, fields: String, expected: (SubeventResultEvent) -> String) -> [CSOracleCase] {
        CSOracleVectors.longSubeventEvents.enumerated().map { i, e in
            CSOracleCase(name: "long subevent, event \(i)", ours: e.packet, python: python(e, i), type: i == 0 ? result : continuation,
                         fields: fields, expected: expected(e),
                         decodes: { (try? SubeventResultEvent.decode(packet: $0, role: .initiator)) == e })
        }
    }

    /// Our reassembler over the oracle's packets of `split`: the whole subevent, once.
    static func joins(_ answers: [String: CSOracleAnswer], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let events = CSOracleVectors.longSubeventEvents
        // 255 octets of parameters at most (§5.4.4): 9 steps of 24 after the 16-octet head, 10 after the 9-octet one.
        #expect(events.map(\.steps.count) == [9, 10, 10, 1], sourceLocation: sourceLocation)
        var reassembler = SubeventResultReassembler()
        var joined: [LECSSubeventResult] = []
        for i in events.indices {
            let built = try #require(answers["long subevent, event \(i)"]?.built, sourceLocation: sourceLocation)
            let event = try SubeventResultEvent.decode(packet: try HCIPacket(h4: Hex.bytes(built)), role: .initiator)
            if let whole = try reassembler.add(event) { joined.append(whole) }
        }
        #expect(joined == [CSOracleVectors.longSubevent], sourceLocation: sourceLocation)
    }

    /// Runs `ask` once over every case of a suite (one Python process), keyed by case name;
    /// names must be unique.
    static func answers(_ cases: [CSOracleCase], _ ask: ([CSOracleCase]) throws -> [CSOracleAnswer]) -> Result<[String: CSOracleAnswer], CSOracleFailure> {
        let names = cases.map(\.name)
        guard Set(names).count == names.count else { return .failure(CSOracleFailure(description: "duplicate case names")) }
        do {
            return .success(Dictionary(uniqueKeysWithValues: zip(names, try ask(cases))))
        } catch {
            return .failure(CSOracleFailure(description: "\(error)"))
        }
    }
}

struct CSOracleFailure: Error, CustomStringConvertible {
    var description: String
}

/// A suite of CS codec cases against one oracle, asked once for all of them.
protocol CSOracleSuite {
    static var oracleName: String { get }
    static var oracle: Result<[String: CSOracleAnswer], CSOracleFailure> { get }
    /// `CSOracleCheck.split`'s cases for this oracle.
    static var split: [CSOracleCase] { get }
    /// `CSFirmwareOutput.cases` for this oracle.
    static var firmware: [CSOracleCase] { get }
}

extension CSOracleSuite {
    static func run(_ cases: [CSOracleCase], sourceLocation: SourceLocation = #_sourceLocation) throws {
        CSOracleCheck.check(cases, try oracle.get(), oracle: oracleName, sourceLocation: sourceLocation)
    }

    /// Firmware encodes, host decodes: our split of a long subevent is the oracle's, and our
    /// reassembler joins the oracle's events into the whole subevent.
    static func checkSplitAndJoin(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try run(split, sourceLocation: sourceLocation)
        try CSOracleCheck.joins(try oracle.get(), sourceLocation: sourceLocation)
    }

    /// What the firmware sends a host, each packet the oracle's own CS class, unchanged.
    static func checkFirmware(sourceLocation: SourceLocation = #_sourceLocation) throws {
        CSFirmwareOutput.checkCoverage(sourceLocation: sourceLocation)
        try run(firmware, sourceLocation: sourceLocation)
    }
}

/// The values both oracle suites encode, each with its octets written out by hand from
/// Core 6.0 Vol 4 Part E (the oracles build from those octets' fields, so a layout error in our
/// encoder and the same error in the vector cannot hide each other).
enum CSOracleVectors {
    static let handle: UInt16 = 0x0040

    /// Every capability field away from its default (§7.8.130): 4 configurations, 0x0102
    /// consecutive procedures, 2 antennas, 4 paths, both roles, mode 3, RTT_Capability 0x05,
    /// N 1/2/3, NADM sounding 0x0001, CS_SYNC 2M, subfeatures 0x0006 (FAE-free, #3c), T_IP1
    /// 0x0005, T_IP2 0x0041, T_FCS 0x0180, T_PM 0x0001, T_SW 2 µs, TX_SNR 0x11; v2 (Core 6.3):
    /// T_IP2_IPT 0x0003, T_SW_IPT 1 µs, 2M N 4/5/6.
    static let capabilities = CSCapabilities(
        numConfigSupported: 4, maxConsecutiveProcedures: 0x0102, numAntennas: 2, maxAntennaPaths: 4,
        roles: [.initiator, .reflector], optionalModes: [.mode3], rttPrecision: [.accessAddressOnly10ns, .randomSequence10ns],
        rttAccessAddressOnlyN: 1, rttSoundingN: 2, rttRandomSequenceN: 3, nadmSounding: [.phaseBased], nadmRandomSequence: [],
        syncPHYs: [.le2M], subfeatures: [.noTransmitterFAE, .channelSelection3c],
        tIP1Times: TimeSet(.tIP1, bits: 0x0005), tIP2Times: TimeSet(.tIP2, bits: 0x0041), tFCSTimes: TimeSet(.tFCS, bits: 0x0180),
        tPMTimes: TimeSet(.tPM, bits: 0x0001), tSW: .us2, txSNR: [.snr18dB, .snr30dB],
        tIP2IPTTimes: TimeSet(.tIP2, bits: 0x0003), tSWIPT: .us1, rtt2MAccessAddressOnlyN: 4, rtt2MSoundingN: 5, rtt2MRandomSequenceN: 6)
    /// `capabilities` in the 28-octet v1 block.
    static let capabilitiesV1Hex = "04" + "0201" + "02" + "04" + "03" + "01" + "05" + "010203" + "0100" + "0000" + "02" + "0600"
        + "0500" + "4100" + "8001" + "0100" + "02" + "11"
    /// The Core 6.3 tail of the 34-octet v2 block (Bumble's): T_IP2_IPT, T_SW_IPT, the 2M N values.
    static let capabilitiesV2TailHex = "0300" + "01" + "040506"

    /// An FAE table of −36 ... +35 (int8 per channel, §7.7.65.40).
    static let faeTable = FAETable((0..<72).map { Int8($0 - 36) })!

    /// A created configuration with every field away from its default (§7.7.65.42): Config_ID 2,
    /// main mode 2, sub mode 1, steps 3–10, repetition 1, 2 mode-0 steps, initiator, RTT_Type 4,
    /// 2M, all allowed channels, map repetition 2, #3c X jump 4, T_IP1 30, T_IP2 20, T_FCS 60,
    /// T_PM 20 µs.
    static var configuration: CSConfiguration {
        var c = CSConfiguration(
            configID: 2, mainMode: .mode2, subMode: .mode1, minMainModeSteps: 3, maxMainModeSteps: 10, mainModeRepetition: 1,
            mode0Steps: 2, role: .initiator, rttType: .random64, csSyncPHY: .le2M, channelMap: .allowed,
            channelMapRepetition: 2, channelSelection: .algorithm3c(shape: .x, jump: 4), inlinePCT: false)
        c.timing = CSTiming(tIP1: 30, tIP2: 20, tFCS: 60, tPM: 20, tSW: 0)
        return c
    }
    /// `configuration` as LE CS Create Config asks for it (§7.8.137): without the times, which
    /// the controllers choose.
    static var requestedConfiguration: CSConfiguration {
        var c = configuration
        c.timing = CSConfiguration(configID: c.configID).timing
        return c
    }
    static let allowedMap = "fcff7ffcffffffffff1f"
    /// LE CS Config Complete's parameters for `configuration`.
    static let configCompleteHex = "00" + "4000" + "02" + "01" + "02" + "01" + "03" + "0a" + "01" + "02" + "00" + "04" + "02" + allowedMap
        + "02" + "01" + "01" + "04" + "00" + "1e" + "14" + "3c" + "14"

    static func pct(_ i: Int, _ q: Int) -> PhaseCorrectionTerm { PhaseCorrectionTerm(i: i, q: q) }
    static func tone(_ i: Int, _ q: Int, _ quality: ToneQuality = .high, _ slot: ToneExtensionSlot = .notExtensionSlot) -> ToneMeasurement {
        ToneMeasurement(pct: pct(i, q), quality: ToneQualityIndicator(quality: quality, extensionSlot: slot))
    }

    /// One step, with its Step_Data in hex as §7.7.65.44 lays it out.
    struct Step {
        var step: SubeventStep
        var dataHex: String
        var mode: UInt8 { step.mode.rawValue }
        var channel: UInt8 { step.channel }
        /// `Step_Mode | Step_Channel | Step_Data_Length | Step_Data`.
        var hex: String { Hex.string([mode, channel, UInt8(dataHex.count / 2)]) + dataHex }
    }

    /// The initiator's steps of modes 0, 1, 2, 3 with N_AP 2 and no PCT1/PCT2:
    /// mode 0 `Packet_Quality | Packet_RSSI | Packet_Antenna | Measured_Freq_Offset 2` (5);
    /// mode 1 `Packet_Quality | Packet_NADM | Packet_RSSI | ToA_ToD 2 | Packet_Antenna` (6);
    /// mode 2 `Antenna_Permutation_Index | (PCT 3 | Tone_Quality_Indicator) × (N_AP + 1)` (13);
    /// mode 3 the mode-1 fields then the mode-2 fields (19). A PCT is I in bits 0–11 and Q in
    /// bits 12–23, little-endian; a tone quality indicator has the quality in its low nibble and
    /// the extension-slot indicator in its high nibble.
    static let initiatorSteps: [Step] = [
        Step(step: SubeventStep(channel: 10, data: .mode0(Mode0StepData(
            packetQuality: PacketQuality(accessAddressCheck: .bitErrors, bitErrorCount: 3), packetRSSI: -60, packetAntenna: 2, measuredFrequencyOffset: 0x7FFB))),
             dataHex: "31" + "c4" + "02" + "fb7f"),
        Step(step: SubeventStep(channel: 20, data: .mode1(Mode1StepData(packetQuality: PacketQuality(), packetNADM: 0xFF, packetRSSI: -70, toaTod: -300, packetAntenna: 1))),
             dataHex: "00" + "ff" + "ba" + "d4fe" + "01"),
        Step(step: SubeventStep(channel: 30, data: .mode2(ToneStepData(antennaPermutationIndex: 1, tones: [
            tone(100, -200), tone(-2048, 2047, .medium), tone(5, -1, .low, .toneExpected)])!)),
             dataHex: "01" + "6480f3" + "00" + "00f87f" + "01" + "05f0ff" + "22"),
        Step(step: SubeventStep(channel: 40, data: .mode3(
            Mode1StepData(packetQuality: PacketQuality(accessAddressCheck: .ok, bitErrorCount: 1), packetNADM: 2, packetRSSI: 10, toaTod: 300, packetAntenna: 2),
            ToneStepData(antennaPermutationIndex: 0, tones: [tone(1, 2), tone(-1, -2, .low), tone(0, 0, .unavailable, .toneNotExpected)])!)),
             dataHex: "10" + "02" + "0a" + "2c01" + "02" + "00" + "012000" + "00" + "ffefff" + "02" + "000000" + "13"),
    ]

    /// The reflector's steps with N_AP 1 and PCT1/PCT2 (phase-based ranging from the sounding
    /// sequence): mode 0 without the frequency offset (3); mode 1 with `Packet_PCT1 4 |
    /// Packet_PCT2 4` (14, 0xFFFFFFFF not available); mode 3 (14 + 9).
    static let reflectorSteps: [Step] = [
        Step(step: SubeventStep(channel: 3, data: .mode0(Mode0StepData(packetQuality: PacketQuality(accessAddressCheck: .notFound), packetRSSI: 127, packetAntenna: 1))),
             dataHex: "02" + "7f" + "01"),
        Step(step: SubeventStep(channel: 4, data: .mode1(Mode1StepData(packetQuality: PacketQuality(), packetNADM: 0, packetRSSI: -50, toaTod: Int16.min, packetAntenna: 1,
                                                                        sequencePCT: SequencePhaseCorrection(pct1: pct(10, 20), pct2: nil)))),
             dataHex: "00" + "00" + "ce" + "0080" + "01" + "0a400100" + "ffffffff"),
        Step(step: SubeventStep(channel: 5, data: .mode3(
            Mode1StepData(packetQuality: PacketQuality(), packetNADM: 0xFF, packetRSSI: -40, toaTod: 1, packetAntenna: 1,
                          sequencePCT: SequencePhaseCorrection(pct1: pct(-10, -20), pct2: pct(0, 1))),
            ToneStepData(antennaPermutationIndex: 0, tones: [tone(300, 400), tone(0, 0, .high, .toneExpected)])!)),
             dataHex: "00" + "ff" + "d8" + "0100" + "01" + "f6cffe00" + "00100000" + "00" + "2c0119" + "00" + "000000" + "20"),
    ]

    /// A mode-2 step with N_AP 4 (permutation index 23, five tones: 21 octets).
    static let fourPathStep = Step(
        step: SubeventStep(channel: 50, data: .mode2(ToneStepData(antennaPermutationIndex: 23, tones: [tone(1, 0), tone(1, 0), tone(1, 0), tone(1, 0), tone(0, 0, .high, .toneNotExpected)])!)),
        dataHex: "17" + "01000000" + "01000000" + "01000000" + "01000000" + "00000010")

    /// The initiator's subevent: counters 0x1234 and 5, Frequency_Compensation 0x0102,
    /// Reference_Power_Level +5 dBm, procedure partial, subevent complete, N_AP 2.
    static let initiatorResult = LECSSubeventResult(
        connectionHandle: handle, configID: 1, startACLConnectionEventCounter: 0x1234, procedureCounter: 5, frequencyCompensation: 0x0102,
        referencePowerLevel: 5, procedureDoneStatus: .partial, subeventDoneStatus: .complete, numAntennaPaths: 2, steps: initiatorSteps.map(\.step))
    /// The reflector's subevent: Config_ID 2, counters 0 and 0xFFFF, Frequency_Compensation not
    /// available (0xC000), Reference_Power_Level not available (0x7F), N_AP 1.
    static let reflectorResult = LECSSubeventResult(
        connectionHandle: handle, configID: 2, startACLConnectionEventCounter: 0, procedureCounter: 0xFFFF, numAntennaPaths: 1,
        steps: reflectorSteps.map(\.step))
    /// A continuation that ends an aborted procedure: both done statuses 0xF, Abort_Reason 0x32
    /// (procedure: too few channels, 2; subevent: scheduling conflict, 3), N_AP 4.
    static let abortedContinue = LECSSubeventResultContinue(connectionHandle: handle, configID: 3, stepsReport: SubeventStepsReport(
        procedureDoneStatus: .aborted, subeventDoneStatus: .aborted, abortReasons: AbortReasons(procedure: .insufficientChannels, subevent: .schedulingConflict),
        numAntennaPaths: 4, steps: [fourPathStep.step]))

    /// A subevent too long for one event: 30 four-path mode-2 steps (24 octets each), which the
    /// firmware splits into LE CS Subevent Result and Continue events (`splitIntoEvents()`,
    /// §7.7.65.44–45: every event but the last "partial") and the hosts join again
    /// (`SubeventResultReassembler`).
    static let longSubevent = LECSSubeventResult(
        connectionHandle: handle, configID: 1, startACLConnectionEventCounter: 7, procedureCounter: 8, numAntennaPaths: 4,
        steps: Array(repeating: fourPathStep.step, count: 30))
    static var longSubeventEvents: [SubeventResultEvent] { longSubevent.splitIntoEvents() }

    static func hex(_ steps: [Step]) -> String { steps.map(\.hex).joined() }

    /// The `repr` of the (mode, channel, data hex) an oracle reads for each step.
    static func stepsRead(_ steps: [Step]) -> String {
        "[" + steps.map { "(\($0.mode), \($0.channel), '\($0.dataHex)')" }.joined(separator: ", ") + "]"
    }

    /// `capabilities` as Python keyword arguments, with the oracle's name for
    /// Num_Antennas_Supported (RootCanal's `num_antennae_supported`, Bumble's `num_antennas_supported`).
    static func capabilitiesKeywords(numAntennas: String) -> String {
        "num_config_supported=4, max_consecutive_procedures_supported=0x0102, \(numAntennas)=2, max_antenna_paths_supported=4, "
            + "roles_supported=3, modes_supported=1, rtt_capability=5, rtt_aa_only_n=1, rtt_sounding_n=2, rtt_random_sequence_n=3, "
            + "nadm_sounding_capability=1, nadm_random_capability=0, cs_sync_phys_supported=2, subfeatures_supported=6, t_ip1_times_supported=5, "
            + "t_ip2_times_supported=0x41, t_fcs_times_supported=0x180, t_pm_times_supported=1, t_sw_time_supported=2, tx_snr_capability=0x11"
    }
}

/// What the firmware itself sends a host, not hand-made values: a central and a peripheral
/// controller (`ControllerPair`) answering every CS command a host sends them and reporting
/// their CS events, and one procedure's subevent results as the step engine measured them over
/// the ToyAir (`ProcedurePipelineTests.runProcedure`, ACI 4: modes 0 and 2, N_AP 2), split into
/// events as the controller sends them. Each oracle must parse every packet as its own CS class
/// (not a generic one) and write it back unchanged.
enum CSFirmwareOutput {
    struct Packet {
        var name: String
        var packet: HCIPacket
        /// Steps in the packet (LE CS Subevent Result or Continue), else nil.
        var steps: Int?
    }

    static let packets: [Packet] = {
        var p = ControllerPair()
        let h = CSOracleVectors.handle
        p.central(LECSReadLocalSupportedCapabilities())
        p.central(LECSReadLocalSupportedCapabilitiesV2())
        p.readyForProcedures()
        p.central(LECSReadRemoteFAETable(connectionHandle: h))
        p.central(LECSWriteCachedRemoteFAETable(connectionHandle: h, table: CSOracleVectors.faeTable))
        p.central(LECSWriteCachedRemoteSupportedCapabilities(connectionHandle: h, capabilities: p.peripheral.localCapabilities))
        p.central(LECSSetChannelClassification(classification: .allowed))
        p.central(LECSProcedureEnable(connectionHandle: h, configID: 0, enable: true))
        p.advance(to: 1_000_000)
        p.central(LECSProcedureEnable(connectionHandle: h, configID: 0, enable: false))
        p.central(LECSRemoveConfig(connectionHandle: h, configID: 0))
        var out: [Packet] = []
        for (side, events) in [("central", p.centralEvents), ("peripheral", p.peripheralEvents)] {
            for (k, e) in events.enumerated() where e.leSubeventCode != LESubeventCode.csSubeventResult && e.leSubeventCode != LESubeventCode.csSubeventResultContinue {
                out.append(Packet(name: "\(side) event \(k)", packet: e))
            }
        }
        var (i, r) = ProcedurePipelineTests.sides(inlinePCT: false, aci: 4)
        let (iResults, rResults, _) = ProcedurePipelineTests.runProcedure(&i, &r, air: ToyAir())
        for (side, results) in [("initiator", iResults), ("reflector", rResults)] {
            for (k, result) in results.enumerated() {
                for (n, e) in result.splitIntoEvents().enumerated() {
                    out.append(Packet(name: "\(side) subevent \(k) event \(n)", packet: e.packet, steps: e.steps.count))
                }
            }
        }
        return out
    }()

    /// The firmware's packets as oracle cases: `type` names the oracle's class for a packet ("ERR":
    /// the oracle cannot parse it; nil: a packet the check leaves out), `stepCount` the oracle's
    /// expression for a result's steps.
    static func cases(type: (HCIPacket) -> String?, stepCount: String) -> [CSOracleCase] {
        packets.compactMap { p in
            guard let t = type(p.packet) else { return nil }
            let c = CSOracleCase(name: "firmware's \(p.name)", ours: p.packet, python: "", type: t,
                                 fields: p.steps == nil ? "" : stepCount, expected: p.steps.map { "\($0)" } ?? "")
            // A packet the oracle cannot parse (a pinned disagreement) comes back as an error.
            return t == "ERR" ? c.writtenBack(as: "ERR ") : c
        }
    }

    /// The session gives every answer and event kind the hosts meet: each CS command's Command
    /// Complete or Status, and the LE Meta CS events (all but Read Remote FAE Table Complete:
    /// the peripheral has no transmitter FAE, so its table is refused with Command Status).
    static func checkCoverage(sourceLocation: SourceLocation = #_sourceLocation) {
        let keys = packets.map { key($0.packet) }
        #expect(Set(keys.compactMap(\.subevent)) == [0x2C, 0x2E, 0x2F, 0x30, 0x31, 0x32], sourceLocation: sourceLocation)
        let answered = Set(keys.compactMap { $0.complete ?? $0.status })
        #expect(answered.isSuperset(of: Set((0x2089...0x2094).map { UInt16($0) } + [0x20A5])), "\(answered.sorted())", sourceLocation: sourceLocation)
    }

    /// The opcode of a Command Complete or Command Status, the subevent code of an LE Meta event.
    static func key(_ p: HCIPacket) -> (complete: UInt16?, status: UInt16?, subevent: UInt8?) {
        ((try? CommandCompleteEvent.decode(packet: p))?.opcode, (try? CommandStatusEvent.decode(packet: p))?.opcode, p.leSubeventCode)
    }
}
