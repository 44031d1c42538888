@testable import BLEHost
import Foundation
import HCITransport
@testable import ReflectorFirmware
@testable import ReflectorTools
@testable import ToolJSON
@testable import CaptureEstimation
@testable import SerialTransport
import RadioWorld
import TestSupport
import Testing
@testable import VirtualBoard

/// `reflector-emu range` against served boards, Bumble's reflector, and boards that fail:
/// the figures it prints and the exit status and message for each failure.
extension BoardBenchTests {
    @Suite struct RangeCommandTests {
        static let ltk = "000102030405060708090A0B0C0D0E0F"

        /// The JSON Lines of a run: its procedure objects and its summary (its loss records,
        /// `LinkRecord`, are neither).
        static func parse(_ stdout: String) throws -> (procedures: [[String: Any]], summary: [String: Any]?) {
            var procedures: [[String: Any]] = []
            var summary: [String: Any]?
            for line in stdout.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if let s = object["summary"] as? [String: Any] { summary = s } else if object["procedure_counter"] != nil { procedures.append(object) }
            }
            return (procedures, summary)
        }

        /// Against the served initiator's emulated accessory (this project's accessory host) with
        /// range's defaults, as a real accessory: found by the Ranging Service it advertises,
        /// paired (LE Secure Connections, Just Works), five procedures within 5 cm of the air's
        /// 3.3 m, with the truth columns.
        @Test func rangesTheServedReflector() throws {
            let board = try ServedBoard(["--role", "initiator", "--channel", "free", "--distance", "3.3"])
            defer { board.stop() }
            let directory = try TemporaryDirectory("range-plot")
            let plot = directory.file("range.svg")
            let r = try ToolProcess.run(["range", "--pty", board.link, "--procedures", "5", "--truth", "3.3", "--json", "--plot", plot], timeout: 60)
            #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
            let (procedures, summary) = try Self.parse(r.stdout)
            let distances = procedures.compactMap { $0["distance_m"] as? Double }
            #expect(distances.count == 5 && distances.allSatisfy { abs($0 - 3.3) < 0.05 }, "\(r.stdout)")
            #expect(procedures.allSatisfy { ($0["error_m"] as? Double).map { abs($0) < 0.05 } == true })
            #expect(summary?["procedures"] as? Int == 5 && summary?["connections"] as? Int == 1)
            #expect(r.stderr.contains("range: connected to C0:FF:EE:00:00:B1 (random address)"), "\(r.stderr)")
            #expect(r.stderr.contains("range: paired (Just Works, bonded for this run)"), "\(r.stderr)")
            let svg = try String(contentsOfFile: plot, encoding: .utf8)
            #expect(svg.contains("<svg ") && svg.contains("Distance against truth") && svg.contains("true 3.30 m"), "\(svg.prefix(300))")
        }

        /// Round-trip timing on a served board: main mode 1 ranges with `rtt` by default, mode 3
        /// with `combined`, the reflector's half over RAS (and said so); both within their
        /// precision of the air's 3.3 m (RTT a few decimetres, the combined estimate centimetres).
        @Test(arguments: [(1, 0.6), (3, 0.05)])
        func rangesWithRoundTripTiming(mode: Int, tolerance: Double) throws {
            let board = try ServedBoard(["--role", "initiator", "--channel", "free", "--distance", "3.3"])
            defer { board.stop() }
            let r = try ToolProcess.run(["range", "--pty", board.link, "--procedures", "4", "--main-mode", String(mode), "--json"], timeout: 60)
            #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
            let (procedures, _) = try Self.parse(r.stdout)
            let distances = procedures.compactMap { $0["distance_m"] as? Double }
            #expect(distances.count == 4 && distances.allSatisfy { abs($0 - 3.3) < tolerance }, "\(r.stdout)")
            #expect(r.stderr.contains("round trips are timed (main mode \(mode)): the reflector's results come over RAS"), "\(r.stderr)")
        }

        /// Against a stack nobody here wrote: Bumble's reflector on board A of a two-board air,
        /// found by the Ranging Service UUID it advertises (range's default), ranged from board B
        /// with inline PCT within 0.3 m of the air's 2.5 m.
        @Test func rangesBumblesReflector() throws {
            let boards = try ServedBoard(["--distance", "2.5", "--channel", "free", "--caps-layout", "bumble"], boards: 2)
            defer { boards.stop() }
            let reflector = TwoBoardServeTests.BumbleReflector(line: boards.links[0], seconds: 40)
            let r = try ToolProcess.run(["range", "--pty", boards.links[1], "--bond-ltk", Self.ltk, "--procedures", "3", "--json"], timeout: 60)
            #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
            let distances = try Self.parse(r.stdout).procedures.compactMap { $0["distance_m"] as? Double }
            #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 2.5) < 0.3 }, "\(r.stdout)")
            #expect(r.stderr.contains("range: connected to F0:F1:F2:F3:F4:F6 (random address)"), "\(r.stderr)")
            #expect(reflector.summary(timeout: 30)?["encrypted"] as? Bool == true)
        }

        /// Without inline PCT (--ras), the reflector's results from its Ranging Service: Bumble's
        /// GATT server with a RAS written from the specification's layouts (Tests/Peers/ras_server.py),
        /// in real-time mode and on demand (Ready, Get, segments, Complete, ACK); each of three
        /// procedures within 0.3 m of the air's 2.5 m, and the reflector served each one (and,
        /// on demand, saw them acknowledged).
        @Test(arguments: ["ras-realtime", "ras-ondemand"])
        func rangesBumblesReflectorOverRAS(mode: String) throws {
            let boards = try ServedBoard(["--distance", "2.5", "--channel", "free", "--caps-layout", "bumble"], boards: 2)
            defer { boards.stop() }
            let reflector = TwoBoardServeTests.BumbleReflector(line: boards.links[0], seconds: 40, ras: mode)
            let r = try ToolProcess.run(["range", "--pty", boards.links[1], "--bond-ltk", Self.ltk, "--procedures", "3", "--json", "--ras"], timeout: 60)
            #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
            let distances = try Self.parse(r.stdout).procedures.compactMap { $0["distance_m"] as? Double }
            #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 2.5) < 0.3 }, "\(r.stdout)")
            let shown = mode == "ras-realtime" ? "real-time" : "on demand"
            #expect(r.stderr.contains("the reflector's results come over RAS (\(shown))"), "\(r.stderr)")
            let ras = reflector.summary(timeout: 30)?["ras"] as? [String: Any]
            #expect((ras?["procedures_sent"] as? Int ?? 0) >= 3, "\(String(describing: ras))")
            // Each procedure is acknowledged after its last segment; range may leave before the third ACK.
            if mode == "ras-ondemand" { #expect((ras?["acks"] as? Int ?? 0) >= 2, "\(String(describing: ras))") }
        }

        /// Boards whose controllers predate Inline PCT Transfer: range asks for no inline PCT on
        /// its own, says an iPhone would not range this reflector, and takes the reflector's
        /// results from its Ranging Service on demand (within 0.3 m of the air's 2.5 m). With
        /// --require-ios it refuses the reflector as an iPhone does (exit 2, naming what is missing);
        /// a reflector without a Ranging Service cannot serve its results (exit 2, named).
        @Test func reflectorWithoutInlinePCTIsRangedOverRAS() throws {
            let serve = ["--distance", "2.5", "--channel", "free", "--caps-layout", "bumble", "--without-inline-pct"]
            do {
                let boards = try ServedBoard(serve, boards: 2)
                defer { boards.stop() }
                let reflector = TwoBoardServeTests.BumbleReflector(line: boards.links[0], seconds: 40, ras: "ras-ondemand")
                let r = try ToolProcess.run(["range", "--pty", boards.links[1], "--bond-ltk", Self.ltk, "--procedures", "3", "--json"], timeout: 60)
                #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
                let distances = try Self.parse(r.stdout).procedures.compactMap { $0["distance_m"] as? Double }
                #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 2.5) < 0.3 }, "\(r.stdout)")
                #expect(r.stderr.contains("note: an iPhone would not range this reflector; it lacks Inline PCT Transfer in the reflector"), "\(r.stderr)")
                #expect(r.stderr.contains("the reflector's results come over RAS (on demand)"), "\(r.stderr)")
                _ = reflector.summary(timeout: 30)
            }
            do {
                let boards = try ServedBoard(serve, boards: 2)
                defer { boards.stop() }
                let reflector = TwoBoardServeTests.BumbleReflector(line: boards.links[0], seconds: 20, ras: "ras-ondemand")
                let r = try ToolProcess.run(["range", "--pty", boards.links[1], "--bond-ltk", Self.ltk, "--require-ios"], timeout: 60)
                #expect(r.status == 2 && !r.timedOut)
                #expect(r.stderr.contains("the accessory does not support what Channel Sounding on iPhone requires: Inline PCT Transfer"), "\(r.stderr)")
                _ = reflector.summary(timeout: 30)
            }
            do {
                let boards = try ServedBoard(serve, boards: 2)
                defer { boards.stop() }
                let reflector = TwoBoardServeTests.BumbleReflector(line: boards.links[0], seconds: 20)
                let r = try ToolProcess.run(["range", "--pty", boards.links[1], "--bond-ltk", Self.ltk], timeout: 60)
                #expect(r.status == 2 && !r.timedOut)
                #expect(r.stderr.contains("the reflector cannot send its results: without inline PCT they come over its Ranging Service, "
                                          + "but the reflector has no Ranging Service (0x185B)"), "\(r.stderr)")
                _ = reflector.summary(timeout: 30)
            }
        }

        /// A reflector that goes out of range while ranging: after the supervision timeout the link
        /// is lost; with --once range prints what it had and exits 1 naming the reason.
        @Test func reflectorThatLeavesEndsARunWithOnce() throws {
            let board = try ServedBoard(["--role", "initiator", "--channel", "free", "--peer-leaves-after", "2"])
            defer { board.stop() }
            let r = try ToolProcess.run(["range", "--pty", board.link, "--name", "reflector-emu", "--once"], timeout: 60)
            #expect(r.status == 1 && !r.timedOut)
            #expect(r.stderr.contains("the reflector went away: connectionTimeout (0x8)"), "\(r.stderr)")
            #expect(r.stdout.split(separator: "\n").filter { $0.hasPrefix("        ") }.count == 2, "\(r.stdout)")
            #expect(r.stdout.contains("summary: 2 of 2 procedures gave a distance"))
        }

        /// Without --once a lost reflector is looked for again: when it comes back, ranging goes on
        /// on a second connection (in process, on virtual time).
        @Test func lostReflectorIsFoundAgain() throws {
            var board = VirtualBoard(.init(role: .initiator, bondLTK: HexText.octets(parsing: Self.ltk)))
            board.peerLeavesAfterProcedures = 2
            var session = RangeSession(plan: .init(scanningFor: AdvertiserFilter(name: "reflector-emu"), longTermKey: HexText.octets(parsing: Self.ltk)!),
                                       estimator: EstimatorChoice.kay.estimator)
            var outputs: [RangeSession.Output] = []
            var now: UInt64 = 0
            while outputs.filter({ if case .procedure = $0 { true } else { false } }).count < 4 && now < 30_000_000 {
                if let c = session.nextCommand() { board.receive(c) }
                for a in session.nextACL() { board.receive(a) }
                for p in board.poll(now: now) {
                    let t = Double(now) / 1e6
                    for o in session.receive(p, now: t) {
                        outputs.append(o)
                        if case .lost = o {
                            session.reconnect()
                            board.peerIsAbsent = false
                        }
                    }
                }
                now += 2_000
            }
            #expect(outputs.contains(.lost(.connectionTimeout)))
            #expect(outputs.filter { if case .phone(.connected) = $0 { true } else { false } }.count == 2)
            #expect(outputs.filter { if case .procedure = $0 { true } else { false } }.count == 4)
            #expect(session.connections == 2)
        }

        /// A port where nothing answers: exit 2 within the timeout, naming the command and what to try.
        @Test func silentPortIsNamed() throws {
            let directory = try TemporaryDirectory("silent")
            let silent = try PseudoTerminal(linkPath: directory.file("silent"), keepsReplicaOpen: true)
            defer { silent.close() }
            let started = Date()
            let r = try ToolProcess.run(["range", "--pty", silent.path, "--bond-ltk", Self.ltk, "--timeout", "200"], timeout: 30)
            #expect(r.status == 2 && r.stderr.contains("no answer to command 0xc03 within 200 ms"), "\(r.stderr)")
            #expect(r.stderr.contains("--baud 115200"))
            #expect(Date().timeIntervalSince(started) < 10)
        }

        /// Boards that cannot be an initiator: one without Channel Sounding, one whose CS is
        /// reflector-only. Each is refused with the reason (exit 2).
        @Test func boardsThatCannotInitiateAreRefused() throws {
            var reflectorOnly = CSCapabilities.projectReflector()
            reflectorOnly.roles = [.reflector]
            for (caps, hidesCS, reason) in [(CSCapabilities.projectReflector(), true, "it does not support Channel Sounding (LE feature bit 46 is clear)"),
                                            (reflectorOnly, false, "its CS capabilities do not include the initiator role")] {
                let fake = try FakeBoard(capabilities: caps, hidesChannelSounding: hidesCS)
                defer { fake.stop() }
                let r = try ToolProcess.run(["range", "--pty", fake.path, "--bond-ltk", Self.ltk, "--timeout", "2000"], timeout: 30)
                #expect(r.status == 2 && r.stderr.contains("this board cannot range as an initiator: \(reason)"), "\(r.stderr)")
            }
        }

        /// Usage errors name what is missing.
        @Test func usageNamesWhatIsMissing() throws {
            #expect(throws: ToolError.usage("range: give --port DEVICE or --pty LINK")) { _ = try RangeCommand.parse(["--bond-ltk", Self.ltk]) }
            // Without a bond key range pairs: the key is optional; a passkey is six digits.
            #expect(try RangeCommand.parse(["--pty", "x"])?.ltk == nil)
            #expect(throws: ToolError.self) { _ = try RangeCommand.parse(["--pty", "x", "--passkey", "1000000"]) }
            #expect(throws: ToolError.usage("range: give at most one of --address, --name and --service")) {
                _ = try RangeCommand.parse(["--pty", "x", "--bond-ltk", Self.ltk, "--name", "a", "--service", "185B"])
            }
        }
    }
}

/// A controller on a pty for tests of what a host does with boards that differ from ours: a
/// `BoardController` answering on a background thread, optionally without Channel Sounding
/// (LE Read Local Supported Features without bit 46). Stopped (thread joined) by `stop()`.
final class FakeBoard: @unchecked Sendable {
    let path: String
    private let terminal: PseudoTerminal
    private let directory: TemporaryDirectory
    private let lock = NSLock()
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)

    private let channel: HCIChannel
    private var board: BoardController
    private let hidesChannelSounding: Bool

    init(capabilities: CSCapabilities, hidesChannelSounding: Bool) throws {
        directory = try TemporaryDirectory("fake-board")
        terminal = try PseudoTerminal(linkPath: directory.file("board"), keepsReplicaOpen: true)
        path = terminal.path
        channel = HCIChannel(link: terminal, side: .controller)
        board = BoardController(capabilities: capabilities, address: 0xC0FF_EE00_00F0, seed: 1)
        self.hidesChannelSounding = hidesChannelSounding
        Thread.detachNewThread { [self] in serve() }
    }

    /// Answers commands until stopped (only this thread touches the channel and the board).
    private func serve() {
        while !isStopping {
            guard let packet = try? channel.receive(timeout: 20), packet.indicator == .command else { continue }
            if hidesChannelSounding, packet.opcode == HCIOpcode.leReadLocalSupportedFeatures {
                try? channel.send(CommandCompleteEvent(opcode: HCIOpcode.leReadLocalSupportedFeatures, returnParameters: [0, 0x01, 0, 0, 0, 0, 0, 0, 0]).packet)
                continue
            }
            board.handleCommand(packet.bytes)
            for e in board.takeEvents() { try? channel.send(e) }
        }
        done.signal()
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    func stop() {
        lock.lock()
        let already = stopping
        stopping = true
        lock.unlock()
        guard !already else { return }
        done.wait()
        terminal.close()
    }

    deinit { stop() }
}

extension BoardBenchTests.RangeCommandTests {
    /// A reflector whose host allows its role late (LE CS Set Default Settings 1.2 s after the
    /// link is encrypted): its controller refuses the first starts (LL_REJECT_EXT_IND, which
    /// must reach the initiator's host as a failed LE CS Procedure Enable Complete at once, not
    /// after a 40 s timeout), and range's session tries again until procedures run.
    @Test func refusedStartIsTriedAgain() throws {
        var air = BoardAir(BoardController(capabilities: .projectReflector(), address: 0xC0FF_EE00_00A0, seed: 1),
                           BoardController(capabilities: .projectReflector(), address: 0xC0FF_EE00_00B0, seed: 2),
                           scenario: AirScenario(seed: 1, geometry: AirGeometry(distance: 1.5), channelModel: .freeSpace, snrDB: 30))
        let key = [UInt8](0..<16)
        let h = BoardController.connectionHandle
        // Board B's host: masks, advertising; the key on request; the reflector role late.
        var script: [(at: UInt64, packet: HCIPacket)] = [
            (0, HCIPacket(opcode: HCIOpcode.setEventMask, parameters: [UInt8](repeating: 0xFF, count: 8))),
            (0, HCIPacket(opcode: HCIOpcode.leSetEventMask, parameters: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])),
            (0, LESetAdvertisingParameters(intervalMin: 0x20, intervalMax: 0x20).packet),
            (0, LESetAdvertisingData(data: [0x02, 0x01, 0x06, 0x03, 0x03, 0x5B, 0x18]).packet),
            (0, LESetAdvertisingEnable(enable: true).packet),
        ]
        var session = RangeSession(plan: .init(scanningFor: AdvertiserFilter(serviceUUID16: 0x185B), longTermKey: key), estimator: EstimatorChoice.kay.estimator)
        var outputs: [RangeSession.Output] = []
        var refusedAt: UInt64?, encryptedAt: UInt64?
        var now: UInt64 = 0
        while outputs.filter({ if case .procedure = $0 { true } else { false } }).count < 2 && now < 20_000_000 {
            _ = session.tick(now: Double(now) / 1e6)
            if let c = session.nextCommand() { air.receive(c, on: 0) }
            while let next = script.first, next.at <= now {
                script.removeFirst()
                air.receive(next.packet, on: 1)
            }
            let out = air.poll(now: now)
            for p in out[1] {
                if p.leSubeventCode == LESubeventCode.longTermKeyRequest {
                    air.receive(LELongTermKeyRequestReply(connectionHandle: h, longTermKey: key).packet, on: 1)
                }
                if p.eventCode == HCIEventCode.encryptionChange, encryptedAt == nil {
                    encryptedAt = now
                    script.append((now + 1_200_000, LECSSetDefaultSettings(connectionHandle: h, initiatorEnabled: false, reflectorEnabled: true,
                                                                          csSyncAntennaSelection: 1, maxTxPower: 20).packet))
                }
            }
            for p in out[0] {
                for o in session.handleEvent(p, now: Double(now) / 1e6) {
                    outputs.append(o)
                    if case .startRefused = o, refusedAt == nil { refusedAt = now }
                    if case .failed(let e) = o { Issue.record("the session failed: \(e)") }
                }
            }
            now += 2_000
        }
        let encrypted = try #require(encryptedAt)
        let refused = try #require(refusedAt, "the early start was not refused")
        #expect(refused - encrypted < 500_000, "the refusal took \(refused - encrypted) us")
        #expect(outputs.contains(.startRefused(.commandDisallowed)))
        let procedures = outputs.compactMap { if case .procedure(let r) = $0 { r } else { nil } }
        #expect(procedures.count == 2 && procedures.allSatisfy { abs(($0.raw ?? 0) - 1.5) < 0.05 }, "\(procedures)")
    }
}
