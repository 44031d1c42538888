@testable import BLEHost
import Foundation
import HCITransport
@testable import PhoneEmulation
@testable import RangingEstimation
@testable import ReflectorTools
@testable import ToolJSON
@testable import ReflectorFirmware
@testable import SerialTransport
import TestSupport
import Testing
import VirtualBoard

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

            /// `ras`: none, ras-realtime or ras-ondemand (the Ranging Service in that mode).
            init(line: String, seconds: Int, ras: String = "none") { start(line: line, seconds: seconds, ras: ras) }

            private func start(line: String, seconds: Int, ras: String) {
                let script = TwoBoardServeTests.peers.appendingPathComponent("bumble_cs_reflector.py").path
                DispatchQueue.global().async {
                    self.result = try? ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                                       ["python3", script, line, TwoBoardServeTests.reflectorAddress, TwoBoardServeTests.ltk, "\(seconds)", ras],
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

        /// This project's GATT server (the Ranging Service over `L2CAPLink` and `ATTServer`) on
        /// board A, and a GATT client nobody here wrote on board B: Bumble connects, exchanges the
        /// MTU, discovers the services and the Ranging Service's characteristics, is refused RAS
        /// Features before encryption (Insufficient Encryption), reads them once encrypted,
        /// subscribes to Real-time Ranging Data and receives a notification.
        @Test func bumbleReadsOurGATTServer() throws {
            let boards = try ServedBoard(["--distance", "2"], boards: 2)
            defer { boards.stop() }
            let script = Self.peers.appendingPathComponent("bumble_gatt_client.py").path
            final class Run: @unchecked Sendable { var result: ToolProcess.Result? }
            let run = Run()
            let done = DispatchSemaphore(value: 0)
            let line = boards.links[1]
            DispatchQueue.global().async {
                run.result = try? ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, line, "C0:FF:EE:00:00:A0", Self.ltk], timeout: 45)
                done.signal()
            }
            let port = try SerialPort(path: boards.links[0])
            defer { port.close() }
            let channel = HCIChannel(link: port, side: .host)
            var db = AttributeDatabase()
            db.addService(.uuid16(0x1800), [.init(uuid: .uuid16(0x2A00), properties: .read, value: Array("reflector-emu".utf8))])
            let ras = db.addService(.uuid16(0x185B), [
                .init(uuid: .uuid16(0x2C14), properties: .read, value: [0x01, 0, 0, 0], encrypted: true),
                .init(uuid: .uuid16(0x2C15), properties: [.notify, .indicate], value: [0x03, 0x00, 0x00, 0x10], encrypted: true),
            ])
            var server = ATTServer(database: db)
            var link = L2CAPLink(connectionHandle: BoardController.connectionHandle, bufferLength: 251, bufferCount: 4)
            var encrypted = false
            var setup: [HCIPacket] = [
                HCIPacket(opcode: HCIOpcode.reset, parameters: []),
                HCIPacket(opcode: HCIOpcode.setEventMask, parameters: [UInt8](repeating: 0xFF, count: 8)),
                HCIPacket(opcode: HCIOpcode.leSetEventMask, parameters: [0x1F, 0, 0, 0, 0, 0, 0, 0]),
                LESetAdvertisingParameters(intervalMin: 0x20, intervalMax: 0x20).packet,
                LESetAdvertisingEnable(enable: true).packet,
            ]
            var waiting = false
            while done.wait(timeout: .now()) == .timedOut {
                if !waiting, !setup.isEmpty {
                    try channel.send(setup.removeFirst())
                    waiting = true
                }
                guard let packet = try? channel.receive(timeout: 20) else { continue }
                if packet.indicator == .aclData {
                    for frame in link.receive(packet) where frame.channel == L2CAPFrame.attributeProtocol {
                        let reply = server.receive(frame.payload, encrypted: encrypted)
                        if let response = reply.response { link.send(L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: response.encode())) }
                        if let w = reply.written, w.handle == ras[1] + 1, let note = server.notification(of: ras[1]) {
                            link.send(L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: note.encode()))
                        }
                    }
                } else {
                    link.handleEvent(packet)
                    if packet.eventCode == HCIEventCode.commandComplete || packet.eventCode == HCIEventCode.commandStatus { waiting = false }
                    if packet.leSubeventCode == LESubeventCode.longTermKeyRequest {
                        try channel.send(LELongTermKeyRequestReply(connectionHandle: BoardController.connectionHandle, longTermKey: HexText.octets(parsing: Self.ltk.uppercased())!).packet)
                    }
                    if packet.eventCode == HCIEventCode.encryptionChange { encrypted = packet.parameters.count >= 4 && packet.parameters[0] == 0 && packet.parameters[3] == 1 }
                }
                for p in link.sendable() { try channel.send(p) }
            }
            let r = try #require(run.result)
            #expect(r.status == 0 && !r.timedOut, "bumble: \(r.stdout) \(r.stderr.suffix(1500))")
            let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            #expect(object?["mtu"] as? Int == 247)
            #expect((object?["services"] as? [String])?.contains { $0.hasPrefix("UUID-16:185B") } == true, "\(r.stdout)")
            #expect((object?["characteristics"] as? [[Any]])?.count == 2)
            #expect((object?["unencrypted_read"] as? String)?.contains("15") == true, "\(r.stdout)")  // 0x0F Insufficient Encryption
            #expect(object?["features"] as? String == "01000000")
            #expect((object?["real_time_descriptors"] as? [String])?.contains { $0.contains("2902") } == true, "\(r.stdout)")
            #expect(object?["notification"] as? String == "03000010")
            #expect(link.takeDrops().isEmpty)
        }
    }
}
