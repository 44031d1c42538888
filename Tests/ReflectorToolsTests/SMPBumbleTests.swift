@testable import BLEHost
import Foundation
import HCITransport
@testable import ReflectorFirmware
@testable import SerialTransport
import TestSupport
import Testing
@testable import ReflectorTools
@testable import ToolJSON
import VirtualBoard

/// This project's LE Secure Connections pairing against a Security Manager nobody here wrote
/// (Bumble's), over two served boards: ours as the peripheral (the accessory) with Bumble's
/// central pairing it, and ours as the central with Bumble's peripheral; Just Works, Passkey
/// Entry (the accessory shows 123456, Bumble's user types it; then Bumble shows and ours
/// types) and Numeric Comparison. Both sides must end with the same LTK, the board must
/// encrypt with it (a key that differs ends the link with MIC Failure), and each must hold the
/// other's IRK and identity address. A wrong passkey fails with Confirm Value Failed (0x04).
extension BoardBenchTests {
    @Suite struct SMPBumbleTests {
        static let boardAddress: UInt64 = 0xC0FF_EE00_00A0  // board A's public address
        static let bumblePeripheral = "F0:F1:F2:F3:F4:F6"
        static let identity = PairingIdentity(irk: Key128(wire: 0x30..<0x40), address: PairingAddress(boardAddress, random: false))

        /// Bumble's side, in the background; its JSON summary when it ends.
        final class Bumble: @unchecked Sendable {
            private let done = DispatchSemaphore(value: 0)
            private var result: ToolProcess.Result?

            init(_ arguments: [String]) {
                let script = TwoBoardServeTests.peers.appendingPathComponent("bumble_smp.py").path
                DispatchQueue.global().async {
                    self.result = try? ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script] + arguments, timeout: 60)
                    self.done.signal()
                }
            }

            func summary(timeout: TimeInterval) -> [String: Any]? {
                guard done.wait(timeout: .now() + timeout) == .success, let out = result?.stdout else { return nil }
                let last = out.split(separator: "\n").last.map(String.init) ?? ""
                return try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
            }

            var stderr: String { result?.stderr ?? "" }
        }

        /// What our side ended with.
        struct Outcome {
            var result: PairingResult?
            var failure: (SMPFailureReason, Bool)?
            var encrypted = false
            var shown: UInt32?
            var compared: UInt32?
        }

        /// Runs our host on `line`: as the peripheral it advertises and answers; as the central
        /// it connects to Bumble's peripheral and pairs. `typed` is what our user types when asked.
        static func runOurSide(line: String, role: PairingSession.Role, io: IOCapability, typed: UInt32? = nil,
                               legacy: PairingSession.LegacyPolicy = .refused) throws -> Outcome {
            let port = try SerialPort(path: line)
            defer { port.close() }
            let channel = HCIChannel(link: port, side: .host)
            var setup: [HCIPacket] = [
                HCIPacket(opcode: HCIOpcode.reset, parameters: []),
                HCIPacket(opcode: HCIOpcode.setEventMask, parameters: [UInt8](repeating: 0xFF, count: 8)),
                HCIPacket(opcode: HCIOpcode.leSetEventMask, parameters: [0x1F, 0, 0, 0, 0, 0, 0, 0]),
            ]
            if role == .responder {
                setup += [LESetAdvertisingParameters(intervalMin: 0x20, intervalMax: 0x20).packet, LESetAdvertisingEnable(enable: true).packet]
            } else {
                setup.append(LECreateConnection(peerAddressType: .random, peerAddress: HexText.address(parsing: bumblePeripheral)!, ownAddressType: .public,
                                                intervalMin: 6, intervalMax: 6, maxLatency: 0, supervisionTimeout: 400).packet)
            }
            var configuration = PairingSession.Configuration(ioCapability: io, identity: identity)
            configuration.bonding = true
            configuration.legacy = legacy
            // The passkey shown is fixed for the test; nonces are random.
            configuration.fixedPasskey = 123_456
            var pairing: PairingSession?
            var link: L2CAPLink?
            var handle: UInt16 = 0
            var ltk: [UInt8]?
            var outcome = Outcome()
            var waiting = false
            let start = Date()
            while Date().timeIntervalSince(start) < 40 {
                if !waiting, !setup.isEmpty {
                    try channel.send(setup.removeFirst())
                    waiting = true
                }
                var actions: [PairingSession.Action] = []
                let now = Date().timeIntervalSince(start)
                if let packet = try? channel.receive(timeout: 20) {
                    if packet.indicator == .aclData, var l = link, var p = pairing {
                        for frame in l.receive(packet) where frame.channel == L2CAPFrame.securityManager { actions += p.receive(frame.payload, now: now) }
                        (link, pairing) = (l, p)
                    } else if packet.indicator == .event {
                        link?.handleEvent(packet)
                        if packet.eventCode == HCIEventCode.commandComplete || packet.eventCode == HCIEventCode.commandStatus { waiting = false }
                        if let e = try? LEConnectionComplete.decode(packet: packet), e.status == .success {
                            handle = e.connectionHandle
                            link = L2CAPLink(connectionHandle: handle, bufferLength: 27, bufferCount: 4)
                            let peer = PairingAddress(e.peerAddress, random: e.peerAddressType.isRandom)
                            var p = PairingSession(role: role, configuration: configuration, local: PairingAddress(boardAddress, random: false),
                                                   peer: peer, keyPair: try P256KeyPair.generate(), random: .system, now: now)
                            if role == .initiator { actions += p.start(now: now) }
                            pairing = p
                        }
                        if let e = try? LELongTermKeyRequest.decode(packet: packet) {
                            try channel.send(ltk.map { LELongTermKeyRequestReply(connectionHandle: e.connectionHandle, longTermKey: $0).packet }
                                             ?? LELongTermKeyRequestNegativeReply(connectionHandle: e.connectionHandle).packet)
                        }
                        if let e = try? EncryptionChange.decode(packet: packet), e.status == .success {
                            outcome.encrypted = e.encryptionEnabled == 1
                            if var p = pairing {
                                actions += p.encryptionChanged(enabled: e.encryptionEnabled == 1, now: now)
                                pairing = p
                            }
                        }
                        if packet.eventCode == DisconnectionComplete.eventCode { break }
                    }
                }
                if var p = pairing { actions += p.tick(now: now); pairing = p }
                while !actions.isEmpty {
                    let a = actions.removeFirst()
                    switch a {
                    case .send(let pdu): link?.send(L2CAPFrame(channel: L2CAPFrame.securityManager, payload: pdu.encode()))
                    case .displayPasskey(let v): outcome.shown = v
                    case .requestPasskey: if var p = pairing { actions += p.enterPasskey(typed ?? 0, now: now); pairing = p }
                    case .confirmNumber(let v):
                        outcome.compared = v
                        if var p = pairing { actions += p.confirmNumber(true, now: now); pairing = p }
                    case .startEncryption(let key):
                        ltk = key.wire
                        try channel.send(LEEnableEncryption(connectionHandle: handle, longTermKey: key.wire).packet)
                    case .longTermKeyReady(let key): ltk = key.wire
                    case .paired(let r): outcome.result = r
                    case let .failed(reason, byPeer): outcome.failure = (reason, byPeer)
                    case .timedOut: outcome.failure = (.unspecifiedReason, false)
                    }
                }
                for p in link?.sendable() ?? [] { try channel.send(p) }
                if pairing?.isFinished == true, (link?.outbound.queued ?? 0) == 0 { break }
            }
            // Keep the line open a little so Bumble reads what was sent last.
            let until = Date().addingTimeInterval(0.5)
            while Date() < until { _ = try? channel.receive(timeout: 20) }
            return outcome
        }

        static func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }
        /// A key as Bumble prints it: the octets as the PDU carries them.
        static func hex(_ k: Key128) -> String { hex(k.wire) }

        /// Bumble's central pairs our accessory: Just Works (NoInputNoOutput on both), and
        /// Passkey Entry with the accessory showing the passkey (DisplayOnly) and Bumble typing it.
        @Test(arguments: [("none", IOCapability.noInputNoOutput), ("keyboard", .displayOnly), ("yesno", .displayYesNo)])
        func bumbleCentralPairsOurAccessory(bumbleIO: String, ours: IOCapability) throws {
            let boards = try ServedBoard(["--distance", "2"], boards: 2)
            defer { boards.stop() }
            let bumble = Bumble(["central", boards.links[1], "C0:FF:EE:00:00:A0", bumbleIO, "123456"])
            let outcome = try Self.runOurSide(line: boards.links[0], role: .responder, io: ours)
            let summary = try #require(bumble.summary(timeout: 30), "\(bumble.stderr.suffix(1500))")
            let result = try #require(outcome.result, "ours: \(String(describing: outcome.failure)); bumble: \(summary)")
            #expect(summary["failure"] == nil, "\(summary)")
            #expect(outcome.encrypted)
            #expect(summary["ltk"] as? String == Self.hex(result.longTermKey), "\(summary)")
            // Each holds the other's identity.
            #expect(summary["peer_irk"] as? String == Self.hex(Self.identity.irk), "\(summary)")
            #expect((summary["peer_identity"] as? String)?.hasPrefix("C0:FF:EE:00:00:A0") == true, "\(summary)")
            #expect(result.peerIRK.map { Self.hex($0) } == summary["own_irk"] as? String, "\(summary)")
            #expect(result.bonded)
            switch ours {
            case .noInputNoOutput: #expect(result.method == .justWorks && !result.isAuthenticated)
            case .displayOnly:
                #expect(outcome.shown == 123_456 && summary["typed"] as? Int == 123_456)
                #expect(result.method == .passkey(initiatorDisplays: false, responderDisplays: true) && result.isAuthenticated)
            default:
                #expect(result.method == .numericComparison)
                #expect(outcome.compared != nil && summary["compared"] as? Int == outcome.compared.map { Int($0) }, "\(summary)")
            }
        }

        /// Our central pairs Bumble's peripheral: ours shows the passkey (DisplayOnly, 123456) and
        /// Bumble's user types it (KeyboardOnly). Typed right: the same LTK, encryption, identities
        /// both ways. Typed wrong (999999, which differs in bit 0): Bumble fails the first round
        /// with Confirm Value Failed (0x04), and neither side has keys.
        @Test(arguments: [(123_456, true), (999_999, false)])
        func ourCentralPairsBumblesPeripheral(bumbleTypes: Int, succeeds: Bool) throws {
            let boards = try ServedBoard(["--distance", "2"], boards: 2)
            defer { boards.stop() }
            let bumble = Bumble(["peripheral", boards.links[1], Self.bumblePeripheral, "keyboard", "\(bumbleTypes)"])
            let outcome = try Self.runOurSide(line: boards.links[0], role: .initiator, io: .displayOnly)
            let summary = try #require(bumble.summary(timeout: 30), "\(bumble.stderr.suffix(1500))")
            #expect(outcome.shown == 123_456)
            guard succeeds else {
                #expect(outcome.result == nil && outcome.failure.map { $0 == (.confirmValueFailed, true) } == true, "\(String(describing: outcome.failure))")
                #expect(summary["ltk"] == nil && summary["failure"] as? Int == 0x04, "\(summary)")
                return
            }
            let result = try #require(outcome.result, "ours: \(String(describing: outcome.failure)); bumble: \(summary)")
            #expect(outcome.encrypted)
            #expect(summary["ltk"] as? String == Self.hex(result.longTermKey), "\(summary)")
            #expect(result.method == .passkey(initiatorDisplays: true, responderDisplays: false) && result.isAuthenticated)
            #expect(result.peerIRK.map { Self.hex($0) } == summary["own_irk"] as? String, "\(summary)")
            #expect(result.peerAddress == PairingAddress(HexText.address(parsing: Self.bumblePeripheral)!, random: true))
            #expect(summary["peer_irk"] as? String == Self.hex(Self.identity.irk), "\(summary)")
        }
        /// Our central pairs Bumble's peripheral with LE legacy pairing (Bumble's SC off; ours
        /// offers SC and accepts legacy): Just Works, and Passkey Entry with ours showing 123456 and
        /// Bumble's user typing it. The link encrypts with the STK, then Bumble distributes its
        /// LTK with EDIV and Rand, which ours ends with; identities both ways.
        @Test(arguments: [("none", IOCapability.noInputNoOutput), ("keyboard", .displayOnly)])
        func ourLegacyCentralPairsBumblesPeripheral(bumbleIO: String, ours: IOCapability) throws {
            let boards = try ServedBoard(["--distance", "2"], boards: 2)
            defer { boards.stop() }
            let bumble = Bumble(["peripheral", boards.links[1], Self.bumblePeripheral, bumbleIO, ours == .displayOnly ? "123456" : "None", "legacy"])
            let outcome = try Self.runOurSide(line: boards.links[0], role: .initiator, io: ours, legacy: .allowed)
            let summary = try #require(bumble.summary(timeout: 30), "\(bumble.stderr.suffix(1500))")
            let result = try #require(outcome.result, "ours: \(String(describing: outcome.failure)); bumble: \(summary)")
            #expect(summary["failure"] == nil, "\(summary)")
            #expect(outcome.encrypted && result.legacy && result.bonded)
            #expect(summary["ltk"] as? String == Self.hex(result.longTermKey), "\(summary)")
            #expect(summary["ediv"] as? Int == Int(result.ediv), "\(summary)")
            #expect(summary["rand"] as? String == Self.hex((0..<8).map { UInt8(truncatingIfNeeded: result.rand >> UInt64(8 * $0)) }), "\(summary)")
            #expect(result.peerIRK.map { Self.hex($0) } == summary["own_irk"] as? String, "\(summary)")
            #expect(result.peerAddress == PairingAddress(HexText.address(parsing: Self.bumblePeripheral)!, random: true))
            #expect(summary["peer_irk"] as? String == Self.hex(Self.identity.irk), "\(summary)")
            if ours == .displayOnly {
                #expect(outcome.shown == 123_456 && summary["typed"] as? Int == 123_456 && result.isAuthenticated, "\(summary)")
                #expect(result.method == .passkey(initiatorDisplays: true, responderDisplays: false))
            } else {
                #expect(result.method == .justWorks && !result.isAuthenticated)
            }
        }
    }
}
