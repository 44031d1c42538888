import Foundation
import EmulatorMath
import PhoneEmulation
@testable import RangingEstimation
@testable import ReflectorFirmware
@testable import ReflectorTools
@testable import ToolJSON
@testable import Captures
@testable import CaptureEstimation
import TestSupport
import Testing

/// Step data recorded on real boards (`data/field`, see its README): the nRF Connect
/// SDK samples' logs of an nRF54L15 pair (one antenna path, one side per file) and Silicon Labs'
/// dump of one procedure with four antenna paths (both sides in one file, every tone rated
/// "quality unavailable"), read by content and estimated by every estimator.
struct VendorLogTests {
    static let field = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../data/field").standardized.path
    static let ncsInitiator = field + "/nrf54l15-waves/ini.txt"
    static let ncsReflector = field + "/nrf54l15-waves/ref.txt"
    static let silabs = field + "/silabs-one-procedure/example_log_pbr.txt"

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("vendor-logs") }

    /// A procedure both sides completed: no abort, and the main-mode steps on both sides.
    static func complete(_ i: CapturedProcedure, _ r: CapturedProcedure?) -> Bool {
        guard let r else { return false }
        func whole(_ p: CapturedProcedure) -> Bool {
            !p.results.isAborted && p.results.subevents.allSatisfy { $0.stepsReport.subeventDoneStatus == .complete }
                && p.results.steps.contains { $0.mode == .mode2 || $0.mode == .mode3 }
        }
        return whole(i) && whole(r)
    }

    // MARK: Reading

    @Test func formatsAreChosenByContent() throws {
        #expect(CaptureFormat(try Self.bytes(Self.ncsInitiator)) == .ncsLog)
        #expect(CaptureFormat(try Self.bytes(Self.ncsReflector)) == .ncsLog)
        #expect(CaptureFormat(try Self.bytes(Self.silabs)) == .siliconLabsLog)
        #expect(CaptureFormat(Array("btsnoop\0".utf8) + [0, 0, 0, 1]) == .btsnoop)
        #expect(CaptureFormat(Array("hello".utf8)) == .unknown)
    }

    @Test func ncsLogsReadWhole() throws {
        let ini = CaptureReader.read(bytes: try Self.bytes(Self.ncsInitiator), defaultRole: .initiator)
        let ref = CaptureReader.read(bytes: try Self.bytes(Self.ncsReflector), defaultRole: .initiator)
        // The initiator's log ends with two 0x01 octets and the reflector's with a "q": terminal
        // noise after the last subevent, passed over as other output.
        #expect(ini.problems.isEmpty, "\(ini.problems)")
        #expect(ref.problems.isEmpty, "\(ref.problems)")
        #expect(ini.procedures.map(\.procedureCounter) == Array(0...63))
        #expect(ref.procedures.map(\.procedureCounter) == Array(0...71))
        // The role comes from the configuration lines, whatever the default.
        #expect(ini.procedures.allSatisfy { $0.role == .initiator && $0.antennaPaths == 1 && $0.origin == .ncsLog })
        #expect(ref.procedures.allSatisfy { $0.role == .reflector })
        // 3 mode-0 steps then 72 mode-2 steps; the initiator's mode 0 carries the frequency offset.
        let first = ini.procedures[0].results
        #expect(first.steps.count == 75)
        #expect(first.steps.prefix(3).allSatisfy { $0.mode == .mode0 })
        #expect(first.steps.dropFirst(3).allSatisfy { $0.mode == .mode2 })
        #expect(first.subevents[0].referencePowerLevel == -16)
        #expect(first.frequencyCompensation == nil)  // the log does not print it
        guard case .mode0(let m0) = first.steps[0].data else { Issue.record("mode 0 expected"); return }
        #expect(first.steps[0].channel == 0x0B)
        #expect(m0.packetRSSI == -45)  // 0xD3
        #expect(m0.measuredFrequencyOffset == 0x7F32)
        // Procedure 36: the subevent aborted (no steps); 37: no steps reported.
        #expect(ini.procedures[36].results.subevents[0].stepsReport.subeventDoneStatus == .aborted)
        #expect(ini.procedures[37].results.steps.isEmpty)
        // The reflector's aborted subevents: 3 mode-0 steps, abort reason 2 (no CS_SYNC).
        let aborted = ref.procedures.filter { $0.results.subevents[0].stepsReport.subeventDoneStatus == .aborted }
        #expect(aborted.count == 8)
        #expect(aborted.allSatisfy { $0.results.subevents[0].stepsReport.abortReasons.subevent.rawValue & 0x0F != 0 })
    }

    @Test func silabsDumpReadsBothSides() throws {
        let c = CaptureReader.read(bytes: try Self.bytes(Self.silabs), defaultRole: .initiator)
        #expect(c.problems.isEmpty)
        #expect(c.procedures.map(\.role) == [.initiator, .reflector])
        #expect(c.procedures.allSatisfy { $0.antennaPaths == 4 && $0.procedureCounter == 0 && $0.origin == .siliconLabsLog })
        let i = c.procedures[0].results, r = c.procedures[1].results
        #expect(i.steps.count == 75 && r.steps.count == 75)
        // Frequency compensation and reference power as the controllers filled them: −4.74 ppm on
        // the initiator; the reflector reports 0 (the spec has 0xC000 there), read as given.
        #expect(i.frequencyCompensation == -474)
        #expect(i.subevents[0].referencePowerLevel == -22)
        #expect(r.frequencyCompensation == 0)
        #expect(r.subevents[0].referencePowerLevel == -26)
        // Every tone rated 3 (unavailable); the extension slot 0x13 (not expected) or 0x23 (expected).
        var qualities: [UInt8: Int] = [:]
        for s in i.steps {
            guard case .mode2(let t) = s.data else { continue }
            for k in 0..<t.toneCount { qualities[t[k].quality.octet, default: 0] += 1 }
        }
        #expect(qualities == [0x03: 288, 0x13: 37, 0x23: 35])
        // The first mode-2 step: channel 0x16, permutation 5, first PCT 0x044011 (I = 17, Q = 68).
        guard case .mode2(let t) = i.steps[3].data else { Issue.record("mode 2 expected"); return }
        #expect(i.steps[3].channel == 0x16)
        #expect(t.antennaPermutationIndex == 5)
        #expect(t[0].pct.i == 0x011 && t[0].pct.q == 0x044)
    }

    /// N_AP = 4 with the permutation decoded: each path's tones line up on one phase slope
    /// (coherence over 0.85); read in slot order instead, none reaches 0.8 and one falls to 0.12.
    @Test func antennaPermutationMattersOnRealData() throws {
        let c = CaptureReader.read(bytes: try Self.bytes(Self.silabs), defaultRole: .initiator)
        let i = c.procedures[0].results.steps, r = c.procedures[1].results.steps
        func coherence(_ tones: ToneSet) -> [Double] {
            tones.paths.map { path in
                let e = PhaseSlopeEstimator().estimate(ToneSet(paths: [path.map { var t = $0; t.isRated = true; t.isGood = true; return t }]))!
                return ChannelGrid.withAveragedTones(path.map { var t = $0; t.isGood = true; return t }) { f, z in
                    ChannelGrid.coherence(channels: f, values: z, distance: e.distance)
                }
            }
        }
        let tones = ToneSetBuilder.tones(initiator: i, reflector: ProcedureEstimation.aligned(r, to: i), antennaPaths: 4)
        #expect(tones.paths.map(\.count) == [72, 72, 72, 72])
        #expect(tones.unratedToneCount == 288)
        let good = coherence(tones)
        #expect(good.allSatisfy { $0 > 0.85 }, "\(good)")
        func unpermuted(_ steps: [SubeventStep]) -> [SubeventStep] {
            steps.map { s in
                guard case .mode2(var t) = s.data else { return s }
                t.antennaPermutationIndex = 0
                return SubeventStep(channel: s.channel, data: .mode2(t))
            }
        }
        let wrong = coherence(ToneSetBuilder.tones(initiator: unpermuted(i), reflector: ProcedureEstimation.aligned(unpermuted(r), to: i), antennaPaths: 4))
        #expect(wrong.allSatisfy { $0 < 0.8 } && wrong.contains { $0 < 0.2 }, "\(wrong)")
    }

    /// Core 6.0 Vol 6 Part H Tables 4.13–4.15 as Zephyr's `subsys/bluetooth/host/cs.c` holds them
    /// (`antenna_path_lut_n_ap_2/3/4`, the last column the extension slot), with A1…A4 as 0…3.
    @Test func antennaPermutationTableIsZephyrs() {
        let zephyr2: [[Int]] = [[0, 1, 1], [1, 0, 0]]
        let zephyr3: [[Int]] = [[0, 1, 2, 2], [1, 0, 2, 2], [0, 2, 1, 1], [2, 0, 1, 1], [2, 1, 0, 0], [1, 2, 0, 0]]
        let zephyr4: [[Int]] = [
            [0, 1, 2, 3, 3], [1, 0, 2, 3, 3], [0, 2, 1, 3, 3], [2, 0, 1, 3, 3], [2, 1, 0, 3, 3], [1, 2, 0, 3, 3],
            [0, 1, 3, 2, 2], [1, 0, 3, 2, 2], [0, 3, 1, 2, 2], [3, 0, 1, 2, 2], [3, 1, 0, 2, 2], [1, 3, 0, 2, 2],
            [0, 3, 2, 1, 1], [3, 0, 2, 1, 1], [0, 2, 3, 1, 1], [2, 0, 3, 1, 1], [2, 3, 0, 1, 1], [3, 2, 0, 1, 1],
            [3, 1, 2, 0, 0], [1, 3, 2, 0, 0], [3, 2, 1, 0, 0], [2, 3, 1, 0, 0], [2, 1, 3, 0, 0], [1, 2, 3, 0, 0],
        ]
        for (n, table) in [(2, zephyr2), (3, zephyr3), (4, zephyr4)] {
            #expect(AntennaPermutation.count(antennaPaths: n) == table.count)
            for (index, row) in table.enumerated() {
                #expect((0...n).map { AntennaPermutation.path(antennaPaths: n, index: index, slot: $0) } == row, "N_AP \(n) index \(index)")
            }
            #expect(AntennaPermutation.path(antennaPaths: n, index: table.count, slot: 0) == nil)
        }
        #expect((0...1).map { AntennaPermutation.path(antennaPaths: 1, index: 0, slot: $0) } == [0, 0])
        // N_AP of every ACI (Table 7.x of Set Procedure Parameters; the 2 × 2 case is ACI 7).
        #expect((0...7).map { AntennaConfiguration(index: $0)!.antennaPaths } == [1, 2, 3, 4, 2, 3, 4, 4])
        #expect(AntennaConfiguration(index: 7).map { [$0.initiatorAntennas, $0.reflectorAntennas] } == [2, 2])
    }

    // MARK: Distances

    @Test(arguments: EstimatorChoice.phaseBased)
    func everyCompleteNCSProcedureHasADistance(_ estimator: EstimatorChoice) throws {
        let ini = CaptureReader.read(bytes: try Self.bytes(Self.ncsInitiator), defaultRole: .initiator)
        let ref = CaptureReader.read(bytes: try Self.bytes(Self.ncsReflector), defaultRole: .reflector)
        let estimates = ProcedureEstimation.estimates(ini, reflector: ref, inlinePCT: nil, estimator: estimator)
        #expect(estimates.count == 64)
        let peers = Dictionary(ref.procedures.map { ($0.procedureCounter, $0) }, uniquingKeysWith: { a, _ in a })
        let complete = ini.procedures.filter { Self.complete($0, peers[$0.procedureCounter]) }.map(\.procedureCounter)
        #expect(complete.count == 62)
        let distances = estimates.filter { complete.contains($0.procedureCounter) }.compactMap(\.distance)
        #expect(distances.count == complete.count, "\(estimates.filter { $0.distance == nil }.map(\.text))")
        #expect(estimates.allSatisfy { $0.distance == nil || $0.source == .vendorLog })
        // No ground truth: the boards stood a metre or a few apart (the last procedures, 58–62, further); every estimator says so.
        #expect(distances.allSatisfy { (0.3...5.0).contains($0) }, "\(estimates.map(\.text))")
    }

    /// What `PhaseChange` and the direction filter's carrier phase rest on, on real boards: the
    /// round-trip tone of a still pair is the same channel every procedure. Over the nRF54L15
    /// recording's 62 complete procedures the change from one to the next is coherent across the
    /// channels (over 0.95) and under 0.7 rad (7 mm) in every case, and the first 41 stay within
    /// 0.4 rad of the first procedure, while the per-procedure distances wander by ±0.2 m.
    @Test func roundTripPhaseHoldsFromProcedureToProcedure() throws {
        let ini = CaptureReader.read(bytes: try Self.bytes(Self.ncsInitiator), defaultRole: .initiator)
        let ref = CaptureReader.read(bytes: try Self.bytes(Self.ncsReflector), defaultRole: .reflector)
        let peers = Dictionary(ref.procedures.map { ($0.procedureCounter, $0) }, uniquingKeysWith: { a, _ in a })
        let tones = ini.procedures.compactMap { i -> ToneSet? in
            guard let r = peers[i.procedureCounter], Self.complete(i, r) else { return nil }
            return ToneSetBuilder.tones(initiator: i.results.steps, reflector: ProcedureEstimation.aligned(r.results.steps, to: i.results.steps),
                                        antennaPaths: 1)
        }
        #expect(tones.count == 62)
        let steps = try zip(tones, tones.dropFirst()).map { try #require(PhaseChange.measure(from: $0, to: $1, expectedChange: 0)) }
        let fromFirst = try tones.dropFirst().map { try #require(PhaseChange.measure(from: tones[0], to: $0, expectedChange: 0)) }
        #expect(steps.allSatisfy { $0.coherence > 0.95 })
        #expect(steps.allSatisfy { abs($0.phase) < 0.7 })
        #expect(fromFirst.prefix(41).allSatisfy { abs($0.phase) < 0.4 })
        #expect(fromFirst.contains { abs($0.phase) > 0.9 })
    }

    @Test(arguments: EstimatorChoice.phaseBased)
    func silabsProcedureHasADistance(_ estimator: EstimatorChoice) throws {
        let c = CaptureReader.read(bytes: try Self.bytes(Self.silabs), defaultRole: .initiator)
        let estimates = ProcedureEstimation.estimates(c, reflector: nil, inlinePCT: nil, estimator: estimator)
        #expect(estimates.count == 1)
        let e = try #require(estimates.first)
        #expect(e.source == .vendorLog)
        let d = try #require(e.distance, "\(e.text)")
        #expect((0...1.5).contains(d), "\(e.text)")
    }

    /// The figures the documentation states (docs/figures.md, "Real boards' recordings"): the
    /// default estimator's spread over the nRF54L15 recording, how far the estimators are apart,
    /// and the Silicon Labs procedure's distances.
    @Test func readmeFigures() throws {
        let readme = try String(contentsOf: ReadmeTranscriptTests.root.appendingPathComponent("docs/figures.md"), encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        let ini = CaptureReader.read(bytes: try Self.bytes(Self.ncsInitiator), defaultRole: .initiator)
        let ref = CaptureReader.read(bytes: try Self.bytes(Self.ncsReflector), defaultRole: .reflector)
        func f(_ x: Double) -> String { String(format: "%.3f", x) }
        // The estimators of tones the page states (these recordings time no round trips, so rtt has
        // no distance and combined is ml).
        let stated: [EstimatorChoice] = [.kay, .ls, .ifft, .esprit, .ml]
        var figures: [EstimatorChoice: (median: String, sd: String, p10: String, p90: String)] = [:]
        for choice in stated {
            let d = ProcedureEstimation.estimates(ini, reflector: ref, inlinePCT: nil, estimator: choice).compactMap(\.distance)
            #expect(d.count == 62)
            let mean = d.reduce(0, +) / Double(d.count)
            let sd = (d.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(d.count - 1)).squareRoot()
            figures[choice] = (f(Quantile.of(d, 0.5)!), f(sd), f(Quantile.of(d, 0.1)!), f(Quantile.of(d, 0.9)!))
        }
        let ml = figures[.ml]!
        #expect(readme.contains("median of \(ml.median) m with a standard deviation of \(ml.sd) m (10th–90th percentile \(ml.p10)–\(ml.p90) m)"), "\(ml)")
        #expect(readme.contains("Kay and least squares \(figures[.kay]!.median) m (σ \(figures[.kay]!.sd) m)"), "\(figures[.kay]!)")
        #expect(figures[.ls]!.median == figures[.kay]!.median)
        #expect(readme.contains("IFFT \(figures[.ifft]!.median) m (σ \(figures[.ifft]!.sd) m)"), "\(figures[.ifft]!)")
        #expect(readme.contains("ESPRIT \(figures[.esprit]!.median) m (σ \(figures[.esprit]!.sd) m)"), "\(figures[.esprit]!)")
        let c = CaptureReader.read(bytes: try Self.bytes(Self.silabs), defaultRole: .initiator)
        let silabs = Dictionary(uniqueKeysWithValues: stated.map {
            ($0, f(ProcedureEstimation.estimates(c, reflector: nil, inlinePCT: nil, estimator: $0)[0].distance!))
        })
        #expect(readme.contains("gives Kay and least squares \(silabs[.kay]!) m, IFFT \(silabs[.ifft]!) m, ESPRIT \(silabs[.esprit]!) m and `ml` \(silabs[.ml]!) m"), "\(silabs)")
    }

    // MARK: cs_step_data_parser's JSON

    /// The dump written as their parser's JSON (their example output's layout, and the current
    /// parser's list of one side per element) reads to the same steps and the same distances.
    @Test func silabsJSONReadsAsTheDump() throws {
        let dump = CaptureReader.read(bytes: try Self.bytes(Self.silabs), defaultRole: .initiator)
        let json = VendorLogReaders.siliconLabsJSON(writing: dump)
        #expect(CaptureFormat(Array(json.utf8)) == .siliconLabsJSON)
        let read = CaptureReader.read(bytes: Array(json.utf8), defaultRole: .initiator)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.procedures.map(\.role) == [.initiator, .reflector])
        #expect(read.procedures.map { $0.results.steps } == dump.procedures.map { $0.results.steps })
        #expect(read.procedures.allSatisfy { $0.antennaPaths == 4 })
        // The current parser's layout: one side per element.
        let current = json.replacingOccurrences(of: "{\"cs_procedures\": [{\"metadata\": {}, \"initiator_step_data\": {\"initiator_step_data\": {",
                                                with: "{\"cs_procedure\": [{\"initiator_step_data\": {")
            .replacingOccurrences(of: "}}, \"reflector_step_data\": {\"reflector_step_data\": {", with: "}}, {\"reflector_step_data\": {")
            .replacingOccurrences(of: "}}}]}", with: "}}]}")
        let second = CaptureReader.read(bytes: Array(current.utf8), defaultRole: .initiator)
        #expect(second.problems.isEmpty, "\(second.problems) \(current.prefix(300))")
        #expect(second.procedures.map { $0.results.steps } == dump.procedures.map { $0.results.steps })
        for choice in EstimatorChoice.allCases {
            let a = ProcedureEstimation.estimates(dump, reflector: nil, inlinePCT: nil, estimator: choice).map(\.distance)
            #expect(ProcedureEstimation.estimates(read, reflector: nil, inlinePCT: nil, estimator: choice).map(\.distance) == a)
            #expect(ProcedureEstimation.estimates(second, reflector: nil, inlinePCT: nil, estimator: choice).map(\.distance) == a)
        }
    }

    @Test func silabsJSONErrorsNameTheKeyOrTheOffset() throws {
        let dump = CaptureReader.read(bytes: try Self.bytes(Self.silabs), defaultRole: .initiator)
        let json = VendorLogReaders.siliconLabsJSON(writing: dump)
        // Two procedures, the second's reflector with a PCT out of range.
        let two = json.replacingOccurrences(of: "]}\n", with: "") + ",\n" + String(json.dropFirst(#"{"cs_procedures": ["#.count))
        let bad = two.replacingOccurrences(of: "\"Tone_PCT\": [", with: "\"Tone_PCT\": [99999999, ", options: .backwards,
                                           range: two.range(of: "reflector_step_data", options: .backwards).map { $0.lowerBound..<two.endIndex })
        let c = CaptureReader.read(bytes: Array(bad.utf8), defaultRole: .initiator)
        #expect(c.procedures.map(\.role) == [.initiator, .reflector, .initiator])
        let p = try #require(c.problems.first)
        #expect(p.keyPath?.hasPrefix("cs_procedures[1].reflector_step_data.reflector_step_data.step_") == true, "\(p)")
        #expect(p.description.hasSuffix(".Tone_PCT[0]: not a whole number in 0...16777215"), "\(p)")
        let path = try dir.write(bad)
        let run = try EstimateCommand.run([path])
        #expect(run.status == 2 && run.lines.count == 2)
        #expect(run.message?.hasSuffix("; 2 procedures before it") == true, "\(run.message ?? "")")
        // Cut mid-document: the JSON parser's byte offset.
        let cut = CaptureReader.read(bytes: Array(json.utf8.prefix(5000)), defaultRole: .initiator)
        #expect(cut.procedures.isEmpty)
        #expect(cut.problems.first?.description.contains("byte offset") == true, "\(cut.problems)")
        // A mode-3 step cannot be read from their JSON.
        let mode3 = json.replacingOccurrences(of: "\"Step_Mode\": 2", with: "\"Step_Mode\": 3")
        #expect(CaptureReader.read(bytes: Array(mode3.utf8), defaultRole: .initiator).problems.first?.message == "a mode-3 step, whose fields the parser's JSON leaves out")
    }

    // MARK: The plot

    @Test func plotShowsTheDistancesAndOneProcedure() throws {
        let path = dir.file("silabs.svg")
        let run = try EstimateCommand.run([Self.silabs, "--plot", path])
        #expect(run.message == nil && run.lines.count == 1)
        let probe = SVGProbe.parse(try String(contentsOfFile: path, encoding: .utf8))
        #expect(probe.texts.contains("Distance per procedure"))
        #expect(probe.texts.contains { $0.hasPrefix("Procedure 0: phase against frequency: distance ") })
        #expect(probe.texts.contains("Procedure 0: amplitude per channel"))
        #expect(probe.texts.contains("Procedure 0: channel impulse response (IFFT)"))
        // Four antenna paths, and the tones the screening left out (path 2's notch).
        #expect((1...4).allSatisfy { p in probe.texts.contains("path \(p)") })
        #expect(probe.texts.contains("left out (17)"), "\(probe.texts)")
        // A chosen procedure of the nRF54L15 recording; one it does not have is a usage error.
        let nrf = dir.file("nrf.svg")
        #expect(try EstimateCommand.run([Self.ncsInitiator, "--reflector", Self.ncsReflector, "--plot", nrf, "--plot-procedure", "60"]).message == nil)
        #expect(SVGProbe.parse(try String(contentsOfFile: nrf, encoding: .utf8)).texts.contains("Procedure 60: amplitude per channel"))
        #expect(throws: ToolError.usage("estimate: --plot-procedure 99: the capture has no such procedure")) {
            try EstimateCommand.run([Self.ncsInitiator, "--reflector", Self.ncsReflector, "--plot", nrf, "--plot-procedure", "99"])
        }
    }

    // MARK: Cut and garbled logs

    @Test func truncatedNCSLogNamesTheLine() throws {
        let text = String(decoding: try Self.bytes(Self.ncsInitiator), as: UTF8.self)
        let lines = text.components(separatedBy: "\n")
        // Cut inside procedure 10's raw step data (the 5th hex line after its "Raw step data:").
        let start = try #require(lines.firstIndex(of: "I:  - Procedure counter: 10"))
        let raw = try #require(lines[start...].firstIndex(of: "I: Raw step data:"))
        let cut = lines[..<(raw + 6)].joined(separator: "\n") + "\n"
        let c = NCSSampleLog.read(Array(cut.utf8), defaultRole: .initiator)
        #expect(c.procedures.map(\.procedureCounter) == Array(0...9))
        let p = try #require(c.problems.first)
        #expect(p.isLine && p.offset == raw + 6)
        #expect(p.message.contains("cut short (80 of 888 octets of raw step data)"), "\(p)")

        let path = try dir.write(cut)
        let run = try EstimateCommand.run([path])
        #expect(run.lines.count == 10)
        #expect(run.message == "\(path): line \(raw + 6): \(p.message); 10 procedures before it")
        #expect(run.status == 2)
    }

    @Test func garbledNCSLogNamesTheLine() throws {
        var lines = String(decoding: try Self.bytes(Self.ncsInitiator), as: UTF8.self).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "I:  - Procedure counter: 5"))
        let raw = try #require(lines[start...].firstIndex(of: "I: Raw step data:"))
        lines[raw + 3] = "  00zz0500d301327f000f0500d301327f"
        var c = NCSSampleLog.read(Array(lines.joined(separator: "\n").utf8), defaultRole: .initiator)
        #expect(c.procedures.count == 5)
        #expect(c.problems.map(\.description) == ["line \(raw + 4): not hex step data inside a subevent's raw step data"])
        // A step whose length does not fit its mode: named by its step and octet.
        lines[raw + 3] = lines[raw + 3].replacingOccurrences(of: "zz", with: "00")
        lines[raw + 1] = "  00" + lines[raw + 1].dropFirst(4)
        lines[raw + 1] = "  000b0600d301327f000f0500d301327f"
        c = NCSSampleLog.read(Array(lines.joined(separator: "\n").utf8), defaultRole: .initiator)
        #expect(c.procedures.count == 5)
        #expect(c.problems.first?.description.hasPrefix("line \(start): step 0 (step data octet 0): Step_Data_Length = 6 is not allowed") == true,
                "\(c.problems)")
        // A field that does not read.
        lines[raw + 1] = "  000b0500d301327f000f0500d301327f"
        lines[start] = "I:  - Procedure counter: five"
        c = NCSSampleLog.read(Array(lines.joined(separator: "\n").utf8), defaultRole: .initiator)
        #expect(c.problems.map(\.description) == ["line \(start + 1): Procedure counter: 'five' is not a number in 0...65535"])
    }

    @Test func truncatedAndGarbledSilabsDumpNamesTheLine() throws {
        let text = String(decoding: try Self.bytes(Self.silabs), as: UTF8.self)
        var lines = text.components(separatedBy: "\n")
        // The reflector's step data cut short: the initiator's side is still read.
        let step = try #require(lines.lastIndex { $0.hasPrefix(" Step data: ") })
        lines[step] = String(lines[step].prefix(300))
        var c = SiliconLabsStepLog.read(Array(lines.joined(separator: "\n").utf8))
        #expect(c.procedures.map(\.role) == [.initiator])
        #expect(c.problems.map(\.description) == ["line \(step + 1): Step data holds 96 octets, Step data count says 1746: the dump is cut short or garbled"])
        // The file ends before the reflector's step data.
        c = SiliconLabsStepLog.read(Array(lines[..<step].joined(separator: "\n").utf8))
        #expect(c.problems.first?.description.hasPrefix("line \(step): the reflector side of line") == true, "\(c.problems)")
        // Garbage where a field should be.
        lines[step - 2] = "\u{1}\u{2}garbage"
        c = SiliconLabsStepLog.read(Array(lines.joined(separator: "\n").utf8))
        #expect(c.problems.map(\.description) == ["line \(step - 1): not a 'key: value' line"])
        let path = try dir.write(lines.joined(separator: "\n"))
        let run = try EstimateCommand.run([path])
        #expect(run.status == 2)
        #expect(run.lines.count == 1)
        #expect(run.message?.hasPrefix("\(path): line \(step - 1): ") == true)
    }
}
