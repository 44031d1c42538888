import Foundation
@testable import ReflectorTools
import TestSupport
import Testing

/// Channel Sounding between this project's hosts over RootCanal (Android's virtual controller,
/// a CS controller nobody here wrote): two of its controllers on one LE air, `accessory` on one
/// and `range` (or Bumble's host) on the other. RootCanal 1.13 deviates from Core 6.0 in ways
/// the hosts must survive (docs/rootcanal.md; docs/decisions.md): no v2
/// capabilities command, zero times in LE CS Config Complete, no procedures for
/// Max_Procedure_Count 0, one reflector procedure a connection, every Procedure_Counter 0. Its
/// tones encode a fixed 0.100 m (PCT = 2047·e^(−j2πf·d/c)), so the distance checks the plumbing.
extension BoardBenchTests {
    @Suite(.enabled(if: RootCanalPeer.testsRun, "RootCanal is not installed (scripts/ensure-deps); CI=true runs these anyway"))
    struct RootCanalRangingTests {
        struct Failure: Error, CustomStringConvertible { var description: String }

        /// One accessory on RootCanal's controller A, started and advertising.
        static func accessory(_ rootCanal: RootCanalPeer, _ dir: TemporaryDirectory, _ extra: [String] = []) throws -> BackgroundProcess {
            let bonds = try AccessoryCommandTests.bondFile(dir)
            let a = try BackgroundProcess(ToolProcess.executable, ["accessory", "--pty", rootCanal.pty("A"), "--force", "--bonds", bonds] + extra)
            guard a.line(timeout: 30, on: .stderr, where: { $0.hasPrefix("accessory: advertising as") }) != nil else {
                a.stop()
                throw Failure(description: "the accessory did not advertise: \(a.stderr)")
            }
            return a
        }

        /// `range` ranges our accessory over RootCanal: v1 capabilities and the zero times said
        /// once each, results over RAS (RootCanal has no inline PCT), 0.100 m, exit 0.
        @Test func ourHostsRangeOverRootCanal() throws {
            try TemporaryDirectory.with("rootcanal-range") { dir in
                let rootCanal = try RootCanalPeer(ptys: ["A", "B"])
                defer { rootCanal.stop() }
                let accessory = try Self.accessory(rootCanal, dir, ["--json"])
                defer { accessory.stop() }
                let r = try ToolProcess.run(["range", "--pty", rootCanal.pty("B"), "--procedures", "1", "--procedure-count", "1", "--json", "--no-progress"],
                                            timeout: 60)
                #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
                let rows = r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                let raw = try #require(rows.first?["distance_m"] as? Double, "\(r.stdout)")
                #expect(abs(raw - 0.100) <= 0.01, "\(r.stdout)")
                for note in ["range: note: the board does not list LE CS Read Local Supported Capabilities v2 (Core 6.3); read with v1 (Core 6.0)",
                             "range: note: LE CS Config Complete reported T_IP1 0 us, T_IP2 0 us, T_FCS 0 us, T_PM 0 us, not times Core 6.0 allows",
                             "range: no inline PCT on this link: the reflector's results come over RAS (real-time)"] {
                    #expect(r.stderr.split(separator: "\n").filter { $0.hasPrefix(note) }.count == 1, "\(note) in: \(r.stderr)")
                }
                // The accessory says RootCanal's zero times too, once, and reported its procedure.
                #expect(accessory.line(timeout: 10, on: .stderr, where: { $0.hasPrefix("accessory: note: LE CS Config Complete reported T_IP1 0 us") }) != nil,
                        "\(accessory.stderr)")
                let a = accessory.stop(signal: SIGTERM, grace: 10)
                #expect(a.stdout.contains("\"procedure_counter\": 0"), "\(a.stdout)")
            }
        }

        /// Max_Procedure_Count 0 ("until disabled", the default): RootCanal's central runs no
        /// procedure; `range` sets the board up again once, then exits 2 naming the count and
        /// the option, in about 20 s, instead of waiting for ever.
        @Test func untilDisabledGivesNoResultAndSaysWhy() throws {
            try TemporaryDirectory.with("rootcanal-count") { dir in
                let rootCanal = try RootCanalPeer(ptys: ["A", "B"])
                defer { rootCanal.stop() }
                let accessory = try Self.accessory(rootCanal, dir)
                defer { accessory.stop() }
                let start = Date()
                let r = try ToolProcess.run(["range", "--pty", rootCanal.pty("B"), "--procedures", "1", "--no-progress"], timeout: 60)
                #expect(r.status == 2, "\(r.stdout) \(r.stderr)")
                #expect(r.stderr.contains("procedures were enabled with Max_Procedure_Count 0 (until disabled, Core 6.0 Vol 4 Part E 7.8.140): "
                    + "a controller that runs none then needs a count, --procedure-count N"), "\(r.stderr)")
                #expect(r.stderr.components(separatedBy: "setting the board up again and looking for the reflector").count - 1 == 1, "\(r.stderr)")
                #expect(Date().timeIntervalSince(start) < 40)
            }
        }

        /// Bumble's host as the phone (`bumble_phone.py`, straight to RootCanal's HCI port)
        /// against our accessory on RootCanal: pairing, RAS and the CS set-up all succeed; RootCanal
        /// gives Bumble's central no result for Max_Procedure_Count 0 (its fault, §3.4), and our
        /// accessory reports the one procedure RootCanal runs on its side.
        @Test func bumblesPhoneAgainstOurAccessory() throws {
            try TemporaryDirectory.with("rootcanal-bumble") { dir in
                let rootCanal = try RootCanalPeer(ptys: ["A"])
                defer { rootCanal.stop() }
                let accessory = try Self.accessory(rootCanal, dir, ["--json"])
                defer { accessory.stop() }
                let script = TwoBoardServeTests.peers.appendingPathComponent("bumble_phone.py").path
                let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                            ["python3", script, "tcp-client:127.0.0.1:\(rootCanal.hciPort)", AccessoryCommandTests.address, "1", "no-ipt"],
                                            timeout: 90)
                let p = try #require(AccessoryCommandTests.lastJSON(r.stdout), "\(r.stdout) \(r.stderr.suffix(1500))")
                #expect(p["encrypted"] as? Bool == true, "\(p)")
                #expect(p["ras_mode"] as? String == "real-time", "\(p)")
                #expect(p["features"] as? Int == 1, "\(p)")
                #expect((p["procedures"] as? [Any])?.isEmpty == true, "\(p)")
                #expect(accessory.line(timeout: 10, on: .stderr, where: { $0.hasPrefix("accessory: paired with") }) != nil, "\(accessory.stderr)")
                let a = accessory.stop(signal: SIGTERM, grace: 10)
                #expect(a.stdout.contains("\"procedure_counter\": 0"), "\(a.stdout) \(a.stderr)")
            }
        }
    }
}
