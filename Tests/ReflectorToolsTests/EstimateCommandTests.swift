import EmulatorMath
import Foundation
import HCITransport
@testable import PhoneEmulation
@testable import RadioWorld
@testable import ReflectorFirmware
@testable import ReflectorTools
@testable import ToolJSON
@testable import Captures
@testable import CaptureEstimation
import TestSupport
import Testing

/// `reflector-emu estimate`: distances from captures the loopback records, pairing of the two
/// sides without inline PCT, and bad or cut captures.
struct EstimateCommandTests {
    /// This test's files, removed when it ends.
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("estimate") }

    /// Both sides' HCI traffic of a loopback run at 3 m, 30 dB, fixed seed.
    struct Captures {
        var initiator: [BTSnoopRecord]
        var reflector: [BTSnoopRecord]
        var procedureCount: Int
    }

    static func loopback(inlinePCT: Bool, procedures: Int = 5, antennaConfigurationIndex: UInt8 = 0, distance: Double = 3.0) -> Captures {
        let setup = LoopbackSetup(scenario: AirScenario(seed: 21, geometry: AirGeometry(distance: distance), snrDB: 30),
                                  antennaConfigurationIndex: antennaConfigurationIndex, inlinePCT: inlinePCT, recordHCI: true)
        var link = setup.makeLink()
        _ = link.settle()
        var count = 0
        for _ in 0..<procedures {
            for case .procedure(_, _) in link.runProcedure() ?? [] { count += 1 }
        }
        return Captures(initiator: link.capture ?? [], reflector: link.reflectorCapture ?? [], procedureCount: count)
    }

    static let ipt = loopback(inlinePCT: true)
    static let noIPT = loopback(inlinePCT: false)

    static func bytes(_ records: [BTSnoopRecord]) -> [UInt8] { try! BTSnoopWriter().encodeFile(records) }

    /// Writes `bytes` to a fresh temporary file and returns its path.
    /// Writes `bytes` to a fresh file of the test's directory and returns its path.
    func write(_ bytes: [UInt8]) throws -> String { try dir.write(bytes, name: "capture-\(UUID().uuidString).btsnoop") }

    /// The file offset of every record of a well-formed capture, and the end of the file.
    static func recordOffsets(_ bytes: [UInt8]) -> [Int] {
        let parsed = BTSnoopReader.parse(bytes)
        var offsets = [BTSnoopFileHeader.length]
        for r in parsed.records { offsets.append(offsets.last! + 24 + r.includedLength(in: .hciUART)) }
        return offsets
    }

    /// The records without LE CS Config Complete events (a capture started after set-up).
    static func withoutConfigComplete(_ records: [BTSnoopRecord]) -> [BTSnoopRecord] {
        records.filter { !($0.packet.bytes.count > 2 && $0.packet.bytes[0] == 0x3E && $0.packet.bytes[2] == LECSConfigComplete.subeventCode) }
    }

    static func jsonLines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    // MARK: Captures of this tool

    @Test func loopbackCaptureHasTheConfigurationAndEveryProcedure() throws {
        #expect(Self.ipt.procedureCount == 5)
        let capture = CaptureProcedures(bytes: Self.bytes(Self.ipt.initiator))
        #expect(capture.problems.isEmpty)
        #expect(capture.procedures.count == 5)
        #expect(capture.procedures.allSatisfy { $0.role == .initiator && $0.inlinePCT == true && $0.antennaPaths == 1 })
        #expect(Set(capture.procedures.map(\.procedureCounter)).count == 5)
        let reflector = CaptureProcedures(bytes: Self.bytes(Self.ipt.reflector), defaultRole: .reflector)
        #expect(reflector.problems.isEmpty)
        #expect(reflector.procedures.map(\.procedureCounter) == capture.procedures.map(\.procedureCounter))
        #expect(reflector.procedures.allSatisfy { $0.role == .reflector })
    }

    @Test func inlinePCTCaptureGivesEveryDistance() throws {
        let path = try write(Self.bytes(Self.ipt.initiator))
        let text = try EstimateCommand.run([path])
        #expect(text.message == nil)
        let lines = text.output.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.allSatisfy { $0.hasPrefix("procedure ") && $0.hasSuffix(", ml)") && $0.contains(" m (quality ") }, "\(lines)")

        let json = try EstimateCommand.run([path, "--json"])
        #expect(json.message == nil)
        let objects = try Self.jsonLines(json.output)
        #expect(objects.count == 5)
        let counters = CaptureProcedures(bytes: Self.bytes(Self.ipt.initiator)).procedures.map { Int($0.procedureCounter) }
        #expect(objects.map { $0["procedure_counter"] as? Int } == counters)
        for o in objects {
            let d = try #require(o["distance_m"] as? Double, "\(o)")
            #expect(abs(d - 3.0) < 0.05, "\(o)")
            let q = try #require(o["quality"] as? Double)
            #expect(q > 0 && q <= 1)
            #expect(o["method"] as? String == "ml")
            #expect(o["reason"] == nil)
        }
    }

    /// ACI 7 (2 × 2 antennas): N_AP 4 comes from the Procedure Enable Complete, every path is used.
    @Test func fourAntennaPaths() throws {
        let captures = Self.loopback(inlinePCT: true, procedures: 3, antennaConfigurationIndex: 7)
        let capture = CaptureProcedures(bytes: Self.bytes(captures.initiator))
        #expect(capture.problems.isEmpty)
        #expect(capture.procedures.count == 3)
        #expect(capture.procedures.allSatisfy { $0.antennaPaths == 4 })
        let estimates = ProcedureEstimation.estimates(capture, reflector: nil, inlinePCT: nil, estimator: .kay)
        #expect(estimates.count == 3)
        #expect(estimates.allSatisfy { abs(($0.distance ?? 0) - 3.0) < 0.05 }, "\(estimates)")
    }

    @Test(arguments: EstimatorChoice.phaseBased)
    func everyEstimatorRanges(_ estimator: EstimatorChoice) throws {
        let path = try write(Self.bytes(Self.ipt.initiator))
        let objects = try Self.jsonLines(try EstimateCommand.run([path, "--json", "--estimator", estimator.rawValue]).output)
        #expect(objects.count == 5)
        for o in objects {
            #expect(o["method"] as? String == estimator.rawValue)
            let d = try #require(o["distance_m"] as? Double, "\(o)")
            #expect(abs(d - 3.0) < 0.1, "\(estimator): \(o)")
        }
    }

    @Test func withoutInlinePCTTheReflectorCaptureIsNeeded() throws {
        let initiator = try write(Self.bytes(Self.noIPT.initiator))
        let reflector = try write(Self.bytes(Self.noIPT.reflector))
        #expect(Self.noIPT.procedureCount == 5)

        let alone = try EstimateCommand.run([initiator, "--json"])
        #expect(alone.message == nil)
        let aloneObjects = try Self.jsonLines(alone.output)
        #expect(aloneObjects.count == 5)
        #expect(aloneObjects.allSatisfy { $0["distance_m"] is NSNull && $0["quality"] is NSNull && $0["method"] as? String == "ml" })
        #expect(aloneObjects.allSatisfy { $0["reason"] as? String == ProcedureEstimation.missingReflector })
        let aloneText = try EstimateCommand.run([initiator]).output
        #expect(aloneText.split(separator: "\n").allSatisfy { $0.contains(": no distance (without inline PCT") }, "\(aloneText)")

        let paired = try EstimateCommand.run([initiator, "--reflector", reflector, "--json"])
        #expect(paired.message == nil)
        let objects = try Self.jsonLines(paired.output)
        #expect(objects.count == 5)
        for o in objects {
            let d = try #require(o["distance_m"] as? Double, "\(o)")
            #expect(abs(d - 3.0) < 0.05, "\(o)")
        }
    }

    /// Pairing is by procedure counter: a reflector capture missing a procedure leaves only that one without a distance.
    @Test func pairingIsByProcedureCounter() throws {
        let initiator = CaptureProcedures(bytes: Self.bytes(Self.noIPT.initiator))
        var reflectorRecords = Self.noIPT.reflector
        // Drop the reflector's results of the second procedure.
        let second = initiator.procedures[1].procedureCounter
        reflectorRecords.removeAll { r in
            let b = r.packet.bytes
            return b.count > 10 && b[0] == 0x3E && b[2] == LECSSubeventResult.subeventCode && UInt16(b[8]) | UInt16(b[9]) << 8 == second
        }
        let reflector = CaptureProcedures(bytes: Self.bytes(reflectorRecords), defaultRole: .reflector)
        #expect(reflector.procedures.count == 4)
        let estimates = ProcedureEstimation.estimates(initiator, reflector: reflector, inlinePCT: nil, estimator: .kay)
        #expect(estimates.map(\.procedureCounter) == initiator.procedures.map(\.procedureCounter))
        #expect(estimates.map { $0.distance == nil } == [false, true, false, false, false])
        #expect(estimates[1].reason?.contains("has no procedure \(second)") == true)
    }

    /// Without Config Complete: role from the step data, inline PCT from the override.
    @Test func captureWithoutConfigComplete() throws {
        let initiator = try write(Self.bytes(Self.withoutConfigComplete(Self.ipt.initiator)))
        let reflector = try write(Self.bytes(Self.withoutConfigComplete(Self.ipt.reflector)))
        let unknown = try EstimateCommand.run([initiator, "--json"])
        #expect(try Self.jsonLines(unknown.output).allSatisfy { $0["reason"] as? String == ProcedureEstimation.unknownInlinePCT })
        let forced = try Self.jsonLines(try EstimateCommand.run([initiator, "--ipt", "--json"]).output)
        #expect(forced.count == 5)
        #expect(forced.allSatisfy { abs(($0["distance_m"] as? Double ?? 0) - 3.0) < 0.05 }, "\(forced)")
        // A reflector's capture given as the main one decodes as the reflector's (mode 0 is 3 octets).
        let guessed = CaptureProcedures(bytes: Self.bytes(Self.withoutConfigComplete(Self.ipt.reflector)))
        #expect(guessed.problems.isEmpty)
        #expect(guessed.procedures.count == 5 && guessed.procedures.allSatisfy { $0.role == .reflector })
        let wrongWay = try Self.jsonLines(try EstimateCommand.run([reflector, "--ipt", "--json"]).output)
        #expect(wrongWay.allSatisfy { $0["reason"] as? String == ProcedureEstimation.reflectorRole })
    }

    // MARK: Bad captures

    @Test func truncatedCaptureReportsTheProceduresBeforeTheCut() throws {
        let full = Self.bytes(Self.ipt.initiator)
        let procedures = CaptureProcedures(bytes: full).procedures
        let offsets = Self.recordOffsets(full)
        // The record after the one that completed the third procedure, cut in its middle.
        let k = try #require(offsets.firstIndex(of: procedures[2].offset))
        let cutRecord = offsets[k + 1]
        let cut = Array(full[..<(cutRecord + 30)])
        let path = try write(cut)
        let result = try EstimateCommand.run([path])
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.map { $0.split(separator: ":")[0] } == procedures.prefix(3).map { "procedure \($0.procedureCounter)"[...] })
        let error = try #require(result.message)
        #expect(error.hasPrefix("\(path): byte offset \(cutRecord): "), "\(error)")
        #expect(error.contains("truncated"))
        #expect(error.contains("3 procedures before it"))
        #expect(!error.contains("\n"))
        // The reader's view: the same offset.
        let capture = CaptureProcedures(bytes: cut)
        #expect(capture.problems == [capture.firstProblem!])
        #expect(capture.firstProblem?.offset == cutRecord)
    }

    /// A Subevent Result that does not decode is skipped with its offset; the other procedures are reported.
    @Test func malformedEventIsSkippedWithItsOffset() throws {
        var records = Self.ipt.initiator
        let full = Self.bytes(records)
        let procedures = CaptureProcedures(bytes: full).procedures
        let offsets = Self.recordOffsets(full)
        let k = try #require(offsets.firstIndex(of: procedures[1].offset))
        #expect(records[k].packet.bytes[2] == LECSSubeventResult.subeventCode)
        records[k].packet.bytes[16] = 9  // Num_Antenna_Paths (event code, length, subevent code, then octet 13 of the body)
        let capture = CaptureProcedures(bytes: Self.bytes(records))
        #expect(capture.procedures.map(\.procedureCounter) == procedures.enumerated().filter { $0.offset != 1 }.map(\.element.procedureCounter))
        #expect(capture.problems.count == 1)
        #expect(capture.firstProblem?.offset == offsets[k])
        #expect(capture.firstProblem?.message.contains("Num_Antenna_Paths = 9") == true, "\(String(describing: capture.firstProblem))")
    }

    @Test func garbageWrongMagicAndMissingFiles() throws {
        var rng = SplitMix64(seed: 0xE57_1A7E)
        let garbage = try write(rng.bytes(500))
        var wrongMagic = Self.bytes(Self.ipt.initiator)
        wrongMagic[3] = UInt8(ascii: "N")
        let magic = try write(wrongMagic)
        let short = try write([0x62, 0x74])
        var badDatalink = Self.bytes(Self.ipt.initiator)
        badDatalink[15] = 0xEF
        let datalink = try write(badDatalink)
        for (path, words) in [(garbage, "not a btsnoop file"), (magic, "not a btsnoop file"), (short, "shorter than the 16-octet"), (datalink, "datalink")] {
            let r = try EstimateCommand.run([path, "--json"])
            #expect(r.output.isEmpty)
            let e = try #require(r.message)
            #expect(e.hasPrefix("\(path): byte offset "), "\(e)")
            #expect(e.contains(words), "\(e)")
            #expect(!e.contains("\n"))
        }
        let missing = "/nonexistent/\(UUID().uuidString).btsnoop"
        #expect(throws: ToolError.badFile("\(missing): cannot read the file")) { try EstimateCommand.run([missing]) }
        let good = try write(Self.bytes(Self.ipt.initiator))
        #expect(throws: ToolError.badFile("\(missing): cannot read the file")) { try EstimateCommand.run([good, "--reflector", missing]) }
    }

    @Test func badArguments() throws {
        func usage(_ args: [String]) -> String? {
            do { _ = try EstimateCommand.run(args); return nil } catch { return error.description }
        }
        #expect(usage([])?.contains("a capture file is required") == true)
        #expect(usage(["a", "b"])?.contains("one capture expected") == true)
        #expect(usage(["a", "--frob"])?.contains("unknown option '--frob'") == true)
        #expect(usage(["a", "--estimator", "music"]) == "--estimator must be one of kay, ls, ifft, esprit, ml, rtt, combined, found 'music'")
        #expect(usage(["a", "--estimator"])?.contains("--estimator needs a value") == true)
        #expect(usage(["a", "--ipt", "--no-ipt"])?.contains("exclude each other") == true)
        #expect(try EstimateCommand.run(["--help"]).output == EstimateCommand.helpText)
    }

    // MARK: End to end

    /// The executable: exit 0 for a whole capture, 2 with a one-line error after the procedures it could read.
    @Test func executableExitStatus() throws {
        let full = Self.bytes(Self.ipt.initiator)
        let procedures = CaptureProcedures(bytes: full).procedures
        let offsets = Self.recordOffsets(full)
        let k = try #require(offsets.firstIndex(of: procedures[2].offset))
        let good = try write(full)
        let cut = try write(Array(full[..<(offsets[k + 1] + 30)]))
        let garbage = try write(Array("this is not a capture at all".utf8))

        let ok = try ToolProcess.run(["estimate", good, "--json"])
        #expect(ok.status == 0)
        #expect(ok.stderr.isEmpty)
        #expect(ok.stdout.split(separator: "\n").count == 5)

        let truncated = try ToolProcess.run(["estimate", cut])
        #expect(truncated.status == 2)
        #expect(truncated.stdout.split(separator: "\n").count == 3)
        #expect(truncated.stderr.hasPrefix("reflector-emu: \(cut): byte offset \(offsets[k + 1]): "), "\(truncated.stderr)")
        #expect(truncated.stderr.filter { $0 == "\n" }.count == 1)

        let bad = try ToolProcess.run(["estimate", garbage])
        #expect(bad.status == 2)
        #expect(bad.stdout.isEmpty)
        #expect(bad.stderr.hasPrefix("reflector-emu: \(garbage): byte offset 0: not a btsnoop file"))

        let usage = try ToolProcess.run(["estimate", "--estimator", "music", good])
        #expect(usage.status == 2)
        #expect(usage.stderr.filter { $0 == "\n" }.count == 1)
    }
}
