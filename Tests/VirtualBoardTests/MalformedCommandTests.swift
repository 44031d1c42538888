import BLEHost
import ReflectorFirmware
import Testing
@testable import VirtualBoard

/// The board reads the general LE commands with the BLEHost codecs: a well-formed command (built
/// by the same codec a host uses) is taken, and a malformed one gets the status the board gave
/// before the codecs (Invalid HCI Command Parameters, Unknown Connection Identifier, Command
/// Disallowed with the named handle), its events decoding with the codecs too.
@Suite struct MalformedCommandTests {
    static let peer: UInt64 = 0xC0FF_EE00_00B1

    /// A board whose host unmasked the connection, encryption and LE Meta events it uses.
    static func board() -> BoardController {
        var b = BoardController(capabilities: .projectReflector(antennas: 2), address: 0xC0FF_EE00_00B0, seed: 1)
        for (op, m) in [(HCIOpcode.setEventMask, UInt64(0x2000_1FFF_FFFF_FFFF)), (HCIOpcode.leSetEventMask, UInt64(0x1F))] {
            _ = send(&b, op, (0..<8).map { UInt8(truncatingIfNeeded: m >> UInt64(8 * $0)) })
        }
        return b
    }

    /// Sends a command and returns the events it produced.
    static func send(_ board: inout BoardController, _ op: UInt16, _ p: [UInt8]) -> [HCIPacket] {
        board.handleCommand(HCIPacket(opcode: op, parameters: p).bytes)
        return board.takeEvents()
    }

    static func commandStatus(_ events: [HCIPacket], _ op: UInt16) -> HCIStatus? {
        events.compactMap { try? CommandStatusEvent.decode(packet: $0) }.first { $0.opcode == op }?.status
    }

    @Test func malformedCreateConnectionIsInvalid() {
        var b = Self.board()
        let create = LECreateConnection(peerAddress: Self.peer).encode()
        #expect(Self.commandStatus(Self.send(&b, HCIOpcode.leCreateConnection, Array(create.dropLast())), HCIOpcode.leCreateConnection) == .invalidHCICommandParameters)
        let extended = LEExtendedCreateConnection(peerAddress: Self.peer).encode()
        #expect(Self.commandStatus(Self.send(&b, HCIOpcode.leExtendedCreateConnection, Array(extended.prefix(9))), HCIOpcode.leExtendedCreateConnection)
                == .invalidHCICommandParameters)
        #expect(Self.commandStatus(Self.send(&b, HCIOpcode.leExtendedCreateConnection, extended), HCIOpcode.leExtendedCreateConnection) == .success)
    }

    @Test func malformedConnectionCommandsKeepTheirStatuses() throws {
        var bench = AirBench()
        bench.connect()
        let handle = BoardController.connectionHandle
        let encrypt = LEEnableEncryption(connectionHandle: handle, longTermKey: Array(0..<16)).encode()
        #expect(Self.commandStatus(bench.command(0, HCIOpcode.leEnableEncryption, Array(encrypt.dropLast())), HCIOpcode.leEnableEncryption) == .invalidHCICommandParameters)
        #expect(Self.commandStatus(bench.command(0, HCIOpcode.leReadRemoteFeatures, [UInt8(handle & 0xFF), UInt8(handle >> 8), 0]), HCIOpcode.leReadRemoteFeatures)
                == .unknownConnectionIdentifier)
        let features = bench.command(0, LEReadRemoteFeatures.opcode, LEReadRemoteFeatures(connectionHandle: handle).encode())
        #expect(features.compactMap { try? LEReadRemoteFeaturesComplete.decode(packet: $0) }.first?.connectionHandle == handle)
        #expect(Self.commandStatus(bench.command(0, HCIOpcode.disconnect, [UInt8(handle & 0xFF), UInt8(handle >> 8)]), HCIOpcode.disconnect) == .unknownConnectionIdentifier)
        #expect(bench.air[0].connected)
        let down = bench.command(0, Disconnect.opcode, Disconnect(connectionHandle: handle, reason: .remoteUserTerminatedConnection).encode())
        #expect(Self.commandStatus(down, HCIOpcode.disconnect) == .success)
        #expect(!bench.air[0].connected)
    }

    @Test func malformedKeyReplyIsInvalidWithItsHandle() throws {
        var bench = AirBench()
        bench.connect()
        bench.command(0, LEEnableEncryption(connectionHandle: BoardController.connectionHandle, longTermKey: Array(0..<16)))
        let request = try #require(bench.leEvents(1, LELongTermKeyRequest.self).first)
        let reply = bench.command(1, HCIOpcode.leLongTermKeyRequestReply,
                                  Array(LELongTermKeyRequestReply(connectionHandle: request.connectionHandle, longTermKey: Array(0..<16)).encode().dropLast()))
        let complete = try #require(reply.compactMap { try? CommandCompleteEvent.decode(packet: $0) }.first)
        #expect(try StatusConnectionHandleReturn.decode(complete.returnParameters)
                == StatusConnectionHandleReturn(status: .invalidHCICommandParameters, connectionHandle: request.connectionHandle))
        let good = bench.command(1, LELongTermKeyRequestReply.opcode, LELongTermKeyRequestReply(connectionHandle: request.connectionHandle, longTermKey: Array(0..<16)).encode())
        #expect(good.compactMap { try? EncryptionChange.decode(packet: $0) }.first == EncryptionChange(connectionHandle: request.connectionHandle, enabled: true))
    }
}
