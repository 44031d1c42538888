@testable import DLTDoA
import Foundation
@testable import ReflectorTools
@testable import ToolFiles
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
        // 901: the initiator times blocks on its own crystal (12 ppm fast), so one more frame falls within the 20 s.
        #expect(lines[lines.count - 3].hasPrefix("summary: 100 fixes from 901 measurements; network discovered at 0.00 s over Bluetooth LE"))
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

    /// The multi-cluster example: three clusters in a 48 m hall chained by bridges, an 18 m range;
    /// fixes all along the walk near the bound, and one line per cluster with its hop count.
    @Test func clusterExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Examples/dltdoa-clusters.json").path
        let d = try DeploymentFile.read(path: path)
        #expect(d.uwbRange == 18 && d.anchors.count == 18)
        #expect(d.anchors.filter { $0.parentCluster != nil }.map(\.address) == [0x1101, 0x1201])
        let (lines, run) = try Self.run([path])
        let records = try #require(run).records
        #expect(records.count >= 425)
        #expect(lines[0].hasPrefix("DL-TDoA: network 0x1235, 18 anchors in 3 clusters, 86.0 s walk"))
        #expect(lines.suffix(3).map { String($0.prefix(44)) } == ["  cluster 0, initiator 1001: hop count 0, 43",
                                                                 "  cluster 1, initiator 1101: hop count 1, 42",
                                                                 "  cluster 2, initiator 1201: hop count 2, 42"])
        let (json, _) = try Self.run([path, "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.last!.utf8)) as? [String: [String: Any]])
        let clusters = try #require(summary["summary"]?["clusters"] as? [[String: Any]])
        #expect(clusters.compactMap { $0["hop_counts"] as? [Int] } == [[0], [1], [2]])
        #expect(clusters.compactMap { $0["initiator"] as? String } == ["1001", "1101", "1201"])
    }

    /// Bad multi-cluster keys: each names the anchor and key, what it held and what is allowed.
    @Test func badClusterInput() throws {
        func anchors(_ extra: [String: String] = [:], range: String = "") throws -> String {
            var list: [String] = []
            for c in 0..<3 {
                for k in 0..<4 {
                    let key = "\(c).\(k)"
                    let base = #"{"address": \#(100 * c + k + 1), "position_m": [\#(16 * c + 2 * k), 0, 2.8], "cluster": \#(c)"#
                    list.append(base + (k == 0 ? #", "initiator": true"# : "") + (extra[key].map { ", " + $0 } ?? "") + "}")
                }
            }
            return try temporaryFile(#"{\#(range)"anchors": ["# + list.joined(separator: ", ") + "]}")
        }
        let good = try anchors(["1.0": #""parent_cluster": 0"#, "2.0": #""parent_cluster": 1"#], range: #""uwb_range_m": 18, "#)
        #expect(Self.message([good]) == nil)
        let responder = try anchors(["1.2": #""parent_cluster": 0"#])
        #expect(Self.message([responder]) == "\(responder): key \"anchors[6].parent_cluster\" is 0 on a responder; allowed: only on a cluster's initiator (the bridge)")
        let missing = try anchors(["1.0": #""parent_cluster": 7"#])
        #expect(Self.message([missing]) == "\(missing): key \"anchors[4].parent_cluster\" is 7; allowed: another cluster of network 4660 (not 1, its own)")
        let own = try anchors(["1.0": #""parent_cluster": 1"#])
        #expect(Self.message([own]) == "\(own): key \"anchors[4].parent_cluster\" is 1; allowed: another cluster of network 4660 (not 1, its own)")
        let loop = try anchors(["1.0": #""parent_cluster": 2"#, "2.0": #""parent_cluster": 1"#])
        #expect(Self.message([loop]) == "\(loop): key \"anchors[4].parent_cluster\" is 2, whose chain of parents loops back to cluster 1; allowed: a chain ending at a cluster without a parent (the time reference)")
        let far = try anchors(["2.0": #""parent_cluster": 0"#], range: #""uwb_range_m": 18, "#)
        #expect(Self.message([far]) == "\(far): key \"anchors[8].parent_cluster\" is 0, whose initiator is 32 m away; allowed: a cluster whose initiator is within uwb_range_m (18 m)")
        let range = try anchors(range: #""uwb_range_m": 0, "#)
        #expect(Self.message([range])?.hasPrefix("\(range): key \"uwb_range_m\" is 0; allowed:") == true)
        let text = try anchors(range: #""uwb_range_m": "far", "#)
        #expect(Self.message([text])?.hasPrefix("\(text): key \"uwb_range_m\"") == true)
        let bad = try anchors(["1.0": #""parent_cluster": -1"#])
        #expect(Self.message([bad])?.hasPrefix("\(bad): key \"anchors[4].parent_cluster\" is -1; allowed:") == true)
        // Eight responders in cluster 0 and a bridge: nine in its Poll.
        var crowded: [String] = [#"{"address": 1, "position_m": [0, 0, 3], "initiator": true}"#]
        for k in 2...9 { crowded.append(#"{"address": \#(k), "position_m": [\#(k), 0, 3]}"#) }
        crowded.append(#"{"address": 20, "position_m": [10, 5, 3], "cluster": 1, "initiator": true, "parent_cluster": 0}"#)
        crowded.append(#"{"address": 21, "position_m": [12, 5, 3], "cluster": 1}"#)
        let full = try temporaryFile(#"{"anchors": ["# + crowded.joined(separator: ", ") + "]}")
        #expect(Self.message([full]) == "\(full): key \"anchors\" has 8 responders and 1 bridges in network 4660 cluster 0; allowed: at most 8 together (a Poll lists at most 8)")
    }
}
