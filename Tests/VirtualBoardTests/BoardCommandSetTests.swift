import ReflectorFirmware
import Testing
@testable import VirtualBoard

/// What the controllers say they answer is what they answer: all 65,536 opcodes are sent (with
/// no parameters) and each answer that is not Unknown HCI Command (0x01) must be for an opcode
/// in `answeredOpcodes`, and every such opcode must be answered otherwise. Read Local Supported
/// Commands reports exactly those with a Supported_Commands position.
@Suite struct BoardCommandSetTests {
    /// The opcodes a command handler answers other than with Unknown HCI Command.
    static func answered(_ handle: (UInt16) -> [HCIPacket]) -> Set<UInt16> {
        var out = Set<UInt16>()
        for op in UInt16.min...UInt16.max {
            for e in handle(op) {
                if let cc = try? CommandCompleteEvent.decode(packet: e), cc.opcode == op, cc.returnParameters.first != HCIStatus.unknownCommand.rawValue { out.insert(op) }
                if let cs = try? CommandStatusEvent.decode(packet: e), cs.opcode == op, cs.status != .unknownCommand { out.insert(op) }
            }
        }
        return out
    }

    static func makeBoard() -> BoardController {
        BoardController(capabilities: .projectReflector(antennas: 2), address: 0xC0FF_EE00_00B0, seed: 1)
    }

    @Test func boardAnswersExactlyItsTable() {
        var board = Self.makeBoard()
        let answered = Self.answered { op in
            board.handleCommand(HCIPacket(opcode: op, parameters: []).bytes)
            return board.takeEvents()
        }
        #expect(answered == BoardController.answeredOpcodes, "answered but not listed: \(hex(answered.subtracting(BoardController.answeredOpcodes))); listed but unknown: \(hex(BoardController.answeredOpcodes.subtracting(answered)))")
        #expect(answered.count == 71)
    }

    @Test func csControllerAnswersExactlyItsList() {
        var cs = Self.makeBoard().cs
        let listed = Set(CSController<AES128>.answeredOpcodes)
        let answered = Self.answered { op in
            cs.handleCommand(HCIPacket(opcode: op, parameters: []).bytes)
            return cs.takeEvents().compactMap { try? HCIPacket(event: $0) }
        }
        #expect(answered == listed, "answered but not listed: \(hex(answered.subtracting(listed))); listed but unknown: \(hex(listed.subtracting(answered)))")
    }

    /// The board's bitmap has a bit for every answered command that has one, and no other; the
    /// only answered commands without one are Read Local Supported Commands and LE CS Write
    /// Cached Remote Supported Capabilities v2 (no public position yet).
    @Test func supportedCommandsBitmapIsTheTable() throws {
        var board = Self.makeBoard()
        board.handleCommand(HCIPacket(opcode: HCIOpcode.readLocalSupportedCommands, parameters: []).bytes)
        let cc = try #require(board.takeEvents().compactMap { try? CommandCompleteEvent.decode(packet: $0) }.first)
        #expect(cc.returnParameters.count == 65 && cc.returnParameters[0] == 0)
        let bitmap = Array(cc.returnParameters.dropFirst())
        var marked = Set<UInt16>()
        for p in SupportedCommands.positions where bitmap[Int(p.octet)] & (1 << p.bit) != 0 { marked.insert(p.opcode) }
        let withoutPosition = BoardController.answeredOpcodes.filter { SupportedCommands.position(of: $0) == nil }
        #expect(withoutPosition == [HCIOpcode.readLocalSupportedCommands, HCIOpcode.leCSWriteCachedRemoteSupportedCapabilitiesV2])
        #expect(marked == BoardController.answeredOpcodes.subtracting(withoutPosition))
        let bits = bitmap.reduce(0) { $0 + $1.nonzeroBitCount }
        #expect(bits == marked.count, "bits set for commands outside the table")
        // Spot checks against the spec's table: LE Set Host Feature 44.1, LE CS Read Local Supported Capabilities 20.5.
        #expect(bitmap[44] & 0b10 != 0 && bitmap[44] & 0b01 == 0)
        #expect(bitmap[20] & (1 << 5) != 0)
    }

    func hex(_ ops: Set<UInt16>) -> String { ops.sorted().map { "0x" + String($0, radix: 16) }.joined(separator: " ") }
}
