import Foundation
import TestSupport
import Testing

/// Google's RootCanal (Android's virtual controller, PyPI rootcanal==1.13.0) as a controller
/// nobody here wrote, reached through a pty as a board (`RootCanalPeer`, Tests/Peers/rootcanal_peer.py):
/// the install of scripts/ensure-deps, the launcher and the socat bridge end to end, and what the
/// hosts see of it. RootCanal is a Core 5.3/6.0 controller (HCI_Version 0x0C, v1 capabilities
/// only), so `check` reports two iOS FAILs; two controllers on its one LE air let `accessory` and
/// `range` connect and pair. Ranging over RootCanal, and its deviations, are `RootCanalRangingTests`'.
///
/// Runs where RootCanal is installed and always on CI (`CI=true`), where a missing RootCanal
/// fails with what to install instead of skipping.
extension BoardBenchTests {
    @Suite(.enabled(if: RootCanalPeer.testsRun, "RootCanal is not installed (scripts/ensure-deps); CI=true runs these anyway"))
    struct RootCanalPeerTests {
        /// RootCanal 1.13.0's v1 capabilities block, as `check --json` reports it.
        static let capabilities = "030100010103010701010100000000010C0001000100010001000A01"

        @Test func checkReadsRootCanalThroughAPty() throws {
            let rootCanal = try RootCanalPeer(ptys: ["A"])
            defer { rootCanal.stop() }
            let r = try ToolProcess.run(["check", "--pty", rootCanal.pty("A")], timeout: 60)
            #expect(r.status == 1, "\(r.stdout) \(r.stderr) \(rootCanal.stderr)")
            #expect(r.stdout.contains("controller: HCI_Version 0x0C (Bluetooth 5.3), company 0x00E0, LE features 0x00004022F30039FF"), "\(r.stdout)")
            #expect(r.stdout.contains("[FAIL] Bluetooth 6.3 or later: HCI_Version 0x0C (Bluetooth 5.3)"), "\(r.stdout)")
            #expect(r.stdout.contains("[pass] Channel Sounding: LE feature bit 46 set; capabilities read with the v1 (Core 6.0) command"), "\(r.stdout)")
            #expect(r.stdout.contains("[FAIL] Inline PCT transfer as reflector"), "\(r.stdout)")
            // Again on the same pty (the bridge outlives a host that closed it), as JSON.
            let j = try ToolProcess.run(["check", "--pty", rootCanal.pty("A"), "--json"], timeout: 60)
            #expect(j.status == 1, "\(j.stdout) \(j.stderr) \(rootCanal.stderr)")
            #expect(j.stdout.contains("\"cs_capabilities\": \"\(Self.capabilities)\""), "\(j.stdout)")
            #expect(j.stdout.contains("\"compatible\": false"), "\(j.stdout)")
            #expect(rootCanal.isRunning, "\(rootCanal.stderr) \(rootCanal.log().suffix(1000))")
        }

        /// `accessory --force` on one RootCanal controller and `range` on another find each
        /// other, connect and pair with LE Secure Connections (Just Works, bonded); the phone's
        /// controller is the second client, DA:4C:10:DE:00:01.
        @Test func accessoryAndRangePairOverRootCanal() throws {
            try TemporaryDirectory.with("rootcanal-pair") { dir in
                let rootCanal = try RootCanalPeer(ptys: ["A", "B"])
                defer { rootCanal.stop() }
                let accessory = try BackgroundProcess(ToolProcess.executable, ["accessory", "--pty", rootCanal.pty("A"), "--force", "--bonds", dir.file("bonds.json")])
                defer { accessory.stop() }
                #expect(accessory.line(timeout: 30, on: .stderr) { $0.hasPrefix("accessory: advertising as 'reflector-emu'") } != nil, "\(accessory.stderr)")
                let range = try BackgroundProcess(ToolProcess.executable, ["range", "--pty", rootCanal.pty("B"), "--no-progress"])
                defer { range.stop() }
                let paired = accessory.line(timeout: 60, on: .stderr) { $0.hasPrefix("accessory: paired with") }
                #expect(paired == "accessory: paired with DA:4C:10:DE:00:01 (Just Works, bonded)", "\(accessory.stderr) range: \(range.stderr)")
                #expect(range.line(timeout: 30, on: .stderr) { $0.hasPrefix("range: paired (Just Works") } != nil, "\(range.stderr)")
                let r = range.stop(signal: SIGTERM, grace: 10)
                #expect(r.stdout.contains("1 connection"), "\(r.stdout) \(r.stderr)")
                let a = accessory.stop(signal: SIGTERM, grace: 10)
                #expect(a.status == 0, "\(a.stdout) \(a.stderr)")
                #expect(a.stdout.contains("1 new pairing"), "\(a.stdout)")
            }
        }

        /// Stopping the peer stops RootCanal and the bridges: the HCI port no longer listens, no
        /// process of the peer's is left, the pty link is gone.
        @Test func stopLeavesNothingBehind() throws {
            let rootCanal = try RootCanalPeer(ptys: ["A"])
            let port = String(rootCanal.hciPort), link = rootCanal.pty("A")
            #expect(FileManager.default.fileExists(atPath: link))
            #expect(Self.processes(mentioning: port).count == 2, "\(Self.processes(mentioning: port))")  // RootCanal and socat
            let r = rootCanal.stop()
            #expect(r.status == 0, "\(r.stderr)")
            #expect(Self.processes(mentioning: port).isEmpty, "\(Self.processes(mentioning: port))")
            #expect(!FileManager.default.fileExists(atPath: link))
        }

        /// The command lines of the running processes that contain `text` (from /proc), the
        /// launcher's own aside.
        static func processes(mentioning text: String) -> [String] {
            let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { $0.allSatisfy(\.isNumber) } ?? []
            return pids.compactMap { pid -> String? in
                guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
                let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
                return line.contains(text) && !line.contains("rootcanal_peer.py") ? line : nil
            }
        }
    }
}
