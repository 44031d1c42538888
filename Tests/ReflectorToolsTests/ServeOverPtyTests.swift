@testable import BLEHost
import Foundation
import TestSupport
import HCITransport
@testable import PhoneEmulation
@testable import RangingEstimation
@testable import ReflectorFirmware
@testable import ReflectorTools
@testable import ToolJSON
@testable import SerialTransport
import Testing

/// serve, check and a host over real pseudo-terminals, as a dev board on a USB serial line.
/// Every process a test starts it stops; every read has a timeout.
extension BoardBenchTests {
    @Suite struct ServeOverPtyTests {
        static let ltk = "000102030405060708090A0B0C0D0E0F"

        /// check against a served board: a compatible reflector, in text and JSON.
        @Test func checkAgainstServe() throws {
            let board = try ServedBoard([])
            defer { board.stop() }
            let text = try CheckCommand.run(["--pty", board.link])
            #expect(text.status == 0 && text.message == nil, "\(text.message ?? "")")
            #expect(text.output.contains("[pass] Inline PCT transfer as reflector"))
            let json = try CheckCommand.run(["--pty", board.link, "--json"])
            #expect(json.status == 0, "\(json.message ?? "")")
            let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as! [String: Any]
            #expect(object["compatible"] as? Bool == true)
            #expect(board.stop() == 0)
        }

        /// The project's own host drives a served initiator over the pty: connect, encrypt, set CS
        /// up, and recover the peer's distance from the subevent results.
        @Test func ownHostRangesOverThePty() throws {
            let board = try ServedBoard(["--role", "initiator", "--channel", "free", "--peer-distance", "3.7", "--bond-ltk", Self.ltk])
            defer { board.stop() }
            let port = try SerialPort(path: board.link)
            defer { port.close() }
            let channel = HCIChannel(link: port, side: .host)
            let setup = LoopbackSetup()
            var host = InitiatorHost(setup: .init(connectionHandle: 0, configuration: setup.configuration, parameters: setup.parameters,
                                                  connect: .init(peerAddress: 0xC0FF_EE00_00B1, peerAddressIsRandom: true, longTermKey: HexText.octets(parsing: Self.ltk)!)))
            var distances: [Double] = []
            var failure: HostError?
            let deadline = Date().addingTimeInterval(30)
            while distances.count < 3 && failure == nil && Date() < deadline {
                if let command = host.nextCommand() { try channel.send(HCIPacket(indicator: .command, bytes: command)) }
                guard let packet = try? channel.receive(timeout: 100) else { continue }
                for out in host.handleEvent(packet.bytes) {
                    switch out {
                    case let .procedure(p, r):
                        let tones = ToneSetBuilder.tones(initiator: p.steps, reflector: r, antennaPaths: p.antennaPaths)
                        if let d = PhaseSlopeEstimator().estimate(tones)?.distance { distances.append(d) }
                    case .failed(let e): failure = e
                    default: break
                    }
                }
            }
            #expect(failure == nil, "\(String(describing: failure))")
            #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 3.7) < 0.3 }, "\(distances)")
        }

        /// A real host stack: Bumble attaches over the pty, connects, encrypts, runs CS and
        /// estimates the distance from the subevent results (Bumble is installed by scripts/ensure-deps).
        @Test func bumbleRangesOverThePty() throws {
            let board = try ServedBoard(["--role", "initiator", "--channel", "free", "--peer-distance", "2.5", "--caps-layout", "bumble", "--bond-ltk", Self.ltk])
            defer { board.stop() }
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Peers/bumble_cs_initiator.py").path
            let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, board.link, "C0:FF:EE:00:00:B1", Self.ltk, "3", "random"], timeout: 60)
            let text = r.stdout
            #expect(r.status == 0 && !r.timedOut, "bumble: \(text) \(r.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            let distances = (object?["procedures"] as? [[String: Any]] ?? []).compactMap { $0["distance_m"] as? Double }
            #expect(object?["controller_version"] as? Int == 0x11)
            // A stock Bumble power-on with CS enabled found CS on the board (issue 10): it read the
            // local capabilities, which it does only when Supported_Commands lists LE Set Host Feature.
            let local = object?["local_cs_capabilities"] as? [String: Any]
            #expect(local?["num_config_supported"] as? Int == 4, "\(text)")
            #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 2.5) < 0.3 }, "\(text)")
        }

        /// Faults: silence gives a clear 'no answer' within the timeout; garbage is not taken for a
        /// controller; a missing port is named.
        @Test func checkFaults() throws {
            let directory = try TemporaryDirectory("silent")
            let silent = try PseudoTerminal(linkPath: directory.file("silent"), keepsReplicaOpen: true)
            defer { silent.close() }
            let started = Date()
            let r = try CheckCommand.run(["--pty", silent.path, "--timeout", "200"])
            #expect(r.status == 2 && r.message?.contains("no answer to command 0xc03 within 200 ms") == true, "\(r.message ?? "")")
            #expect(Date().timeIntervalSince(started) < 10)
            let missing = try CheckCommand.run(["--port", "/dev/does-not-exist"])
            #expect(missing.status == 2 && missing.message?.contains("/dev/does-not-exist") == true)
        }

        /// A host that goes away mid-packet does not stop the board: the next host is served.
        @Test func boardSurvivesAHostLeavingMidPacket() throws {
            let board = try ServedBoard([])
            defer { board.stop() }
            do {
                let port = try SerialPort(path: board.link)
                try port.write([0x01, 0x03, 0x0C])  // Reset, cut after the opcode
                port.close()
            }
            let r = try CheckCommand.run(["--pty", board.link])
            #expect(r.status == 0, "\(r.message ?? "")")
        }
    }
}
