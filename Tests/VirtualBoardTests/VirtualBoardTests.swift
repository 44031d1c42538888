@testable import BLEHost
import Foundation
import HCITransport
@testable import PhoneEmulation
@testable import RadioWorld
@testable import RangingEstimation
@testable import ReflectorFirmware
import Testing
@testable import VirtualBoard

/// The virtual dev board driven in process, as the serve command drives it over a line.
struct VirtualBoardTests {
    static let ltk: [UInt8] = Array(0..<16)

    /// The project's own host connects to a served initiator's peer, encrypts, sets CS up and
    /// receives subevent results whose PCTs give the peer's distance.
    @Test func hostRangesThroughAServedInitiator() throws {
        var board = VirtualBoard(.init(role: .initiator, scenario: AirScenario(seed: 3, geometry: AirGeometry(distance: 2.5), snrDB: 30), bondLTK: Self.ltk))
        let setup = LoopbackSetup()
        var host = InitiatorHost(setup: .init(connectionHandle: 0, configuration: setup.configuration, parameters: setup.parameters,
                                              connect: .init(peerAddress: 0xC0FF_EE00_00B1, peerAddressIsRandom: true, longTermKey: Self.ltk)))
        var distances: [Double] = []
        var now: UInt64 = 0
        var failures: [HostError] = []
        while distances.count < 3 && now < 5_000_000 {
            if let c = host.nextCommand() { board.receive(HCIPacket(indicator: .command, bytes: c)) }
            for p in board.poll(now: now) {
                for out in host.handleEvent(p.bytes) {
                    if case let .procedure(results, reflector) = out {
                        let tones = ToneSetBuilder.tones(initiator: results.steps, reflector: reflector, antennaPaths: results.antennaPaths)
                        if let d = PhaseSlopeEstimator().estimate(tones)?.distance { distances.append(d) }
                    }
                    if case .failed(let e) = out { failures.append(e) }
                }
            }
            now += 2_000
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(distances.count == 3 && distances.allSatisfy { abs($0 - 2.5) < 0.05 }, "\(distances)")
        #expect(host.handle == BoardController.connectionHandle)
    }

    /// A wrong key ends the link as a real link layer ends it: the emulated reflector's MIC check
    /// fails on the board's first encrypted PDU and it leaves; 2 s later (the supervision timeout
    /// the phone's host asks for) the board tells its host the connection timed out.
    @Test func wrongKeyIsRefused() {
        var board = VirtualBoard(.init(role: .initiator, bondLTK: Self.ltk))
        var host = InitiatorHost(setup: .init(connectionHandle: 0, configuration: LoopbackSetup().configuration, parameters: LoopbackSetup().parameters,
                                              connect: .init(peerAddress: 0xC0FF_EE00_00B1, peerAddressIsRandom: true, longTermKey: Array(repeating: 9, count: 16))))
        var outputs: [InitiatorHost.Output] = []
        var now: UInt64 = 0
        while outputs.isEmpty && now < 6_000_000 {
            if let c = host.nextCommand() { board.receive(HCIPacket(indicator: .command, bytes: c)) }
            for p in board.poll(now: now) { outputs += host.handleEvent(p.bytes).filter { if case .connected = $0 { false } else { true } } }
            now += 2_000
        }
        #expect(outputs == [.failed(.linkLost(.connectionTimeout))])
        #expect(now > 2_000_000 && now < 2_500_000, "\(now) µs")
        #expect(!board.board.connected)
    }

    /// A served initiator whose peer stops answering LL control PDUs: the host's Read Remote
    /// Version Information goes unanswered, and 40 s later (T_PRT) the board drops the link and
    /// tells the host with Disconnection Complete, reason LL Response Timeout (0x22).
    @Test func silentPeerDropsTheLinkAfterTheResponseTimeout() throws {
        var board = VirtualBoard(.init(role: .initiator, bondLTK: Self.ltk))
        let setup = LoopbackSetup()
        var host = InitiatorHost(setup: .init(connectionHandle: 0, configuration: setup.configuration, parameters: setup.parameters,
                                              connect: .init(peerAddress: 0xC0FF_EE00_00B1, peerAddressIsRandom: true, longTermKey: Self.ltk)))
        var outputs: [InitiatorHost.Output] = []
        var asked: UInt64?
        var dropped: (time: UInt64, bytes: [UInt8])?
        var now: UInt64 = 0
        let step: UInt64 = 10_000
        while dropped == nil && now < 60_000_000 {
            if let c = host.nextCommand() {
                if HCIPacket(indicator: .command, bytes: c).opcode == ReadRemoteVersionInformation.opcode {
                    // The peer stops answering once the link is encrypted.
                    board.peerIsSilent = true
                    asked = board.clock
                }
                board.receive(HCIPacket(indicator: .command, bytes: c))
            }
            for p in board.poll(now: now) {
                if p.eventCode == HCIEventCode.disconnectionComplete { dropped = (now, p.bytes) }
                outputs += host.handleEvent(p.bytes).filter { if case .connected = $0 { false } else { true } }
            }
            now += step
        }
        let start = try #require(asked)
        let (time, bytes) = try #require(dropped)
        #expect(bytes == [0x05, 0x04, 0x00, 0x40, 0x00, 0x22])
        #expect(time >= start + LLProcedureState.responseTimeout && time < start + LLProcedureState.responseTimeout + step)
        #expect(outputs == [.failed(.linkLost(.llResponseTimeout))])
        #expect(!board.board.connected && !board.board.cs.isConnected)
    }

    /// A served reflector: the host advertises and answers the phone's key request; the phone
    /// then runs CS against it and the host receives the reflector's subevent results.
    @Test func phoneRangesAServedReflector() throws {
        var board = VirtualBoard(.init(role: .reflector, scenario: AirScenario(seed: 8, geometry: AirGeometry(distance: 4.0), snrDB: 30), bondLTK: Self.ltk))
        func command(_ op: UInt16, _ p: [UInt8]) { board.receive(HCIPacket(opcode: op, parameters: p)) }
        let masks: [(UInt16, UInt64)] = [(HCIOpcode.setEventMask, 0x2000_1FFF_FFFF_FFFF), (HCIOpcode.leSetEventMask, 0x1F | 0xFF << 43)]
        for (op, m) in masks { command(op, (0..<8).map { UInt8(truncatingIfNeeded: m >> UInt64(8 * $0)) }) }
        command(HCIOpcode.leSetHostFeature, [47, 1])
        command(HCIOpcode.leSetAdvertisingEnable, [1])
        var events: [HCIPacket] = []
        var now: UInt64 = 0
        var configured = false
        while now < 6_000_000 && board.proceduresRun < 2 {
            // The phone also reads the Ranging Service over ATT (ACL): a host without a GATT server lets it be.
            for p in board.poll(now: now) where p.indicator == .event {
                let e = try HCIPacket(event: p.bytes)
                events.append(e)
                if e.leSubeventCode == LESubeventCode.longTermKeyRequest { command(HCIOpcode.leLongTermKeyRequestReply, [0x40, 0x00] + Self.ltk) }
                if e.eventCode == 0x08 && !configured {  // encrypted: allow the reflector role
                    configured = true
                    command(LECSSetDefaultSettings.opcode, LECSSetDefaultSettings(connectionHandle: 0x40, initiatorEnabled: false, reflectorEnabled: true,
                                                                                csSyncAntennaSelection: 1, maxTxPower: 0).encode())
                }
            }
            now += 2_000
        }
        #expect(events.contains { $0.leSubeventCode == 0x01 }, "connection complete")
        #expect(events.contains { $0.eventCode == 0x08 && $0.parameters[3] == 1 }, "encrypted")
        #expect(events.contains { $0.leSubeventCode == 0x2F }, "config complete")
        #expect(events.contains { $0.leSubeventCode == 0x30 }, "procedure enable complete")
        let results = events.filter { $0.leSubeventCode == 0x31 }
        #expect(!results.isEmpty)
        let distances: [Double] = board.phoneOutputs.compactMap {
            guard case let .procedure(p, r) = $0 else { return nil }
            return PhaseSlopeEstimator().estimate(ToneSetBuilder.tones(initiator: p.steps, reflector: r, antennaPaths: p.antennaPaths))?.distance
        }
        #expect(distances.count >= 1 && distances.allSatisfy { abs($0 - 4.0) < 0.05 }, "\(distances) \(board.phoneOutputs.prefix(3))")
    }

    /// What a host stack sends while it initialises is answered, and unknown commands get Unknown HCI Command.
    @Test func answersHostInitialisation() throws {
        var board = VirtualBoard(.init(role: .initiator))
        let startup: [(UInt16, [UInt8])] = [(HCIOpcode.reset, []), (HCIOpcode.readLocalVersionInformation, []), (HCIOpcode.readLocalSupportedCommands, []), (HCIOpcode.readLocalSupportedFeatures, []), (HCIOpcode.readBDAddr, []), (HCIOpcode.readBufferSize, []),
                                         (HCIOpcode.leReadBufferSize, []), (HCIOpcode.leReadLocalSupportedFeatures, []), (HCIOpcode.writeLEHostSupport, [1, 0]), (HCIOpcode.leSetRandomAddress, [1, 2, 3, 4, 5, 0xC6]), (HCIOpcode.leReadMaximumDataLength, []), (HCIOpcode.leReadSuggestedDefaultDataLength, []),
                                         (HCIOpcode.leWriteSuggestedDefaultDataLength, [251, 0, 0x48, 0x08]), (HCIOpcode.leRand, []), (0xFC01, [])]
        var answers: [UInt16: [UInt8]] = [:]
        var statuses: [UInt16: HCIStatus] = [:]
        for (op, p) in startup {
            board.receive(HCIPacket(opcode: op, parameters: p))
            for packet in board.poll(now: 0) {
                let e = try HCIPacket(event: packet.bytes)
                if let cc = try? CommandCompleteEvent.decode(packet: e) { answers[cc.opcode] = cc.returnParameters }
                if let cs = try? CommandStatusEvent.decode(packet: e) { statuses[cs.opcode] = cs.status }
            }
        }
        #expect(answers.count == startup.count - 1)
        #expect(answers.values.allSatisfy { $0.first == 0 })
        #expect(answers[HCIOpcode.readLocalVersionInformation]?[1] == 0x11)  // HCI version 6.3
        let commands = try #require(answers[HCIOpcode.readLocalSupportedCommands])
        #expect(commands.count == 65 && commands[21] & (1 << 5) != 0)  // octet 20 bit 5: CS Read Local Supported Capabilities
        #expect(statuses[0xFC01] == .unknownCommand)
    }
}
