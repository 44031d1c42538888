@testable import DLTDoA
import Foundation
@testable import ReflectorTools
import TestSupport
import Testing

/// `reflector-emu tdoa`: defaults, output forms, deployment files and their errors.
struct TDoACommandTests {
    /// This test's files, removed when it ends.
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("tdoa") }

    static func run(_ args: [String]) throws -> ([String], DLTDOASimulation.Run?) {
        let output = CommandOutput.memory()
        let run = try TDoACommand.simulate(CommandTesting.options(TDoACommand.self, args), output: output)
        return (output.lines, run)
    }

    static func message(_ args: [String]) -> String? {
        do { _ = try TDoACommand.run(args) } catch { return error.description }
        return nil
    }

    func temporaryFile(_ text: String) throws -> String { try dir.write(text, name: "deployment-\(UUID().uuidString).json") }

    /// No flags: the default room, 100 fixes over the 20 s walk, near the bound.
    @Test func defaults() throws {
        let (lines, run) = try Self.run([])
        let records = try #require(run).records
        #expect(records.count == 100)
        #expect(lines[0].hasPrefix("DL-TDoA: network 0x1234, 8 anchors in 1 cluster, 20.0 s walk, timestamp noise 0.100 m"))
        // Two header lines, a line per fix, then an empty line and the three summary lines.
        #expect(lines.count == 2 + 100 + 4)
        #expect(lines[lines.count - 3].hasPrefix("summary: 100 fixes from 900 measurements; network discovered at 0.00 s over Bluetooth LE"))
        let rmse = (records.map { $0.fixError * $0.fixError }.reduce(0, +) / 100).squareRoot()
        #expect(rmse < 0.3)
    }

    /// JSON Lines parse; the summary carries the same counts.
    @Test func jsonLines() throws {
        let (lines, _) = try Self.run(["--json", "--seed", "4"])
        for line in lines.dropLast() {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((o["fix_m"] as? [Double])?.count == 3 && o["error_m"] is Double && o["crlb_m"] is Double)
        }
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: [String: Any]])
        #expect(summary["summary"]?["fixes"] as? Int == lines.count - 1)
    }

    /// The example deployment runs; its cabinet shadows one anchor, which is rejected.
    @Test func exampleDeployment() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let (_, run) = try Self.run([root.appendingPathComponent("Examples/dltdoa-room.json").path])
        let records = try #require(run).records
        #expect(records.count >= 95)
        #expect(records.filter { !$0.fix.fix.rejectedAnchors.isEmpty }.count >= 50)
    }

    /// `--plot` writes the floor map and the error panel.
    @Test func plot() throws {
        let path = dir.file("tdoa.svg")
        _ = try Self.run(["--plot", path])
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.contains("Floor map: 8 anchors, network 0x1234") && svg.contains("Fix error") && svg.contains("CRLB"))
    }

    /// Bad flags and bad deployment files: one line naming the flag or the key path.
    @Test func badInput() throws {
        #expect(Self.message(["--noise", "-1"]) == "--noise must be a number from 0 to 10 m, found '-1'")
        #expect(Self.message(["--bogus"]) == "tdoa: unknown option '--bogus' (see reflector-emu tdoa --help)")
        #expect(Self.message(["--network", "zz"]) == "--network must be a 32-bit session ID (decimal or 0x hex), found 'zz'")
        #expect(Self.message(["/no/such/file.json"]) == "/no/such/file.json: cannot read the file")
        let bad = try temporaryFile(#"{"anchors": [{"address": "0A01", "position_m": [0, 0], "initiator": true}]}"#)
        #expect(Self.message([bad]) == "\(bad): key \"anchors[0].position_m\" is an array; allowed: [x, y, z] in metres")
        let twoInitiators = try temporaryFile(#"{"anchors": [{"address": "0A01", "position_m": [0, 0, 1], "initiator": true}, {"address": 2, "position_m": [1, 0, 1], "initiator": true}]}"#)
        #expect(Self.message([twoInitiators]) == "\(twoInitiators): key \"anchors\" has 2 initiators in network 4660 cluster 0; allowed: exactly one (\"initiator\": true)")
        let typo = try temporaryFile(#"{"anchor": []}"#)
        #expect(Self.message([typo])?.hasPrefix("\(typo): key \"anchor\" is not a deployment key; allowed: network_id, anchors,") == true)
    }
}
