@testable import BLEHost
import Foundation
import HCITransport
@testable import PhoneEmulation
@testable import RangingEstimation
@testable import ReflectorTools
@testable import ReflectorFirmware
@testable import SerialTransport
import TestSupport
import Testing

/// `serve --pty A --pty B`: two boards in one air, with host stacks on both lines and no
/// emulated peer. Bumble is installed by scripts/ensure-deps; every process a test starts it stops.
extension BoardBenchTests {
    @Suite struct TwoBoardServeTests {
        static let ltk = "000102030405060708090a0b0c0d0e0f"
        static let reflectorAddress = "F0:F1:F2:F3:F4:F6"
        static let peers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Peers")

        /// A Bumble reflector on A, started in the background; its JSON summary when it ends.
        final class BumbleReflector: @unchecked Sendable {
            private let done = DispatchSemaphore(value: 0)
            private var result: ToolProcess.Result?

            init(line: String, seconds: Int) { start(line: line, seconds: seconds) }

            private func start(line: String, seconds: Int) {
                let script = TwoBoardServeTests.peers.appendingPathComponent("bumble_cs_reflector.py").path
                DispatchQueue.global().async {
                    self.result = try? ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                                       ["python3", script, line, TwoBoardServeTests.reflectorAddress, TwoBoardServeTests.ltk, "\(seconds)"],
                                                       timeout: TimeInterval(seconds + 15))
                    self.done.signal()
                }
            }

            /// The reflector's summary (waits for it to end, at most `timeout` s).
            func summary(timeout: TimeInterval) -> [String: Any]? {
                guard done.wait(timeout: .now() + timeout) == .success, let out = result?.stdout else { return nil }
                let last = out.split(separator: "\n").last.map(String.init) ?? ""
                return try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
            }
        }

        /// Two stacks nobody here wrote: Bumble as reflector on A and as initiator on B connect,
        /// encrypt with the bond's key, run CS with inline PCT, and the initiator's distances come
        /// within 0.3 m of the air's 2.5 m; its disconnection reaches the reflector with its reason.
        @Test func bumbleRangesBumbleThroughTwoBoards() throws {
            let boards = try ServedBoard(["--distance", "2.5", "--channel", "free", "--caps-layout", "bumble"], boards: 2)
            defer { boards.stop() }
            let reflector = BumbleReflector(line: boards.links[0], seconds: 40)
            let script = Self.peers.appendingPathComponent("bumble_cs_initiator.py").path
            // The reflector advertises within a second of starting; the initiator connects when it hears it.
            let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                        ["python3", script, boards.links[1], Self.reflectorAddress, Self.ltk, "3", "random"], timeout: 60)
            #expect(r.status == 0 && !r.timedOut, "initiator: \(r.stdout) \(r.stderr.suffix(2000))")
            let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let distances = (object?["procedures"] as? [[String: Any]] ?? []).compactMap { $0["distance_m"] as? Double }
            #expect(object?["remote_inline_pct"] as? Bool == true)
            #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 2.5) < 0.3 }, "\(r.stdout)")
            let summary = reflector.summary(timeout: 20)
            #expect(summary?["encrypted"] as? Bool == true, "\(String(describing: summary))")
            #expect((summary?["subevent_results"] as? Int ?? 0) >= 3)
            #expect(summary?["disconnection_reason"] as? Int == Int(HCIStatus.remoteUserTerminatedConnection.rawValue))
            #expect(summary?["peer_address"] as? String == "F0:F1:F2:F3:F4:F5")
        }

        /// Without inline PCT: the same two Bumble hosts with a configuration that does not ask
        /// for it, each keeping its own PCTs; the distance is their product's phase slope (as a
        /// phone computes it with the reflector's PCTs from RAS), within 0.3 m of the air's 2.5 m
        /// for each of three procedures.
        @Test func bumbleRangesBumbleWithoutInlinePCT() throws {
            let boards = try ServedBoard(["--distance", "2.5", "--channel", "free", "--caps-layout", "bumble"], boards: 2)
            defer { boards.stop() }
            let reflector = BumbleReflector(line: boards.links[0], seconds: 40)
            let script = Self.peers.appendingPathComponent("bumble_cs_initiator.py").path
            let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                        ["python3", script, boards.links[1], Self.reflectorAddress, Self.ltk, "3", "random", "no-ipt"], timeout: 60)
            #expect(r.status == 0 && !r.timedOut, "initiator: \(r.stdout) \(r.stderr.suffix(2000))")
            let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            let initiator = (object?["procedures"] as? [[String: Any]] ?? []).compactMap { $0["tones"] as? [String: [Double]] }
            let summary = try #require(reflector.summary(timeout: 20))
            let reflected = summary["procedures"] as? [[String: [Double]]] ?? []
            try #require(initiator.count == 3 && reflected.count >= 3, "\(initiator.count) and \(reflected.count) procedures")
            for (mine, theirs) in zip(initiator, reflected) {
                let d = Self.phaseSlopeDistance(initiator: mine, reflector: theirs)
                #expect(d.map { abs($0 - 2.5) < 0.3 } == true, "\(String(describing: d))")
            }
        }

        /// Kay's estimate over 1 MHz neighbours of the two sides' PCT products: d = −c·arg(S)/(4π·1 MHz).
        static func phaseSlopeDistance(initiator: [String: [Double]], reflector: [String: [Double]]) -> Double? {
            var product: [Int: (re: Double, im: Double)] = [:]
            for (key, a) in initiator {
                guard let ch = Int(key), let b = reflector[key], a.count == 2, b.count == 2 else { continue }
                product[ch] = (a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])
            }
            var s = (re: 0.0, im: 0.0)
            for (ch, z) in product {
                guard let w = product[ch - 1] else { continue }
                s = (s.re + z.re * w.re + z.im * w.im, s.im + z.im * w.re - z.re * w.im)
            }
            guard s.re != 0 || s.im != 0 else { return nil }
            let d = -299_792_458.0 * atan2(s.im, s.re) / (4 * Double.pi * 1e6)
            return d >= -10 ? d : d + 299_792_458.0 / 2e6
        }
    }
}
