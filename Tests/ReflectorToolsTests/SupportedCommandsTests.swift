import Foundation
@testable import ReflectorFirmware
import TestSupport
import Testing
@testable import VirtualBoard

/// The Supported_Commands positions (Core 6.0 Vol 4 Part E §6.27) against a second
/// implementation: Bumble's `HCI_SUPPORTED_COMMANDS_MASKS`, read from the installed Bumble
/// (scripts/ensure-deps installs it), and the bitmaps the controllers report against what they answer.
@Suite struct SupportedCommandsTests {
    /// Every position in our table is the one Bumble has for the opcode, and every opcode
    /// without a position has none in Bumble either.
    @Test func positionsAreBumbles() throws {
        let script = """
        from bumble import hci
        for op, mask in sorted(hci.HCI_SUPPORTED_COMMANDS_MASKS.items()):
            bit = mask.bit_length() - 1
            print(f"{op:04x} {bit // 8} {bit % 8}")
        """
        let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], timeout: 60)
        try #require(r.status == 0, "python3 with bumble failed: \(r.stderr)")
        var bumble: [UInt16: (Int, Int)] = [:]
        for line in r.stdout.split(separator: "\n") {
            let f = line.split(separator: " ")
            guard f.count == 3, let op = UInt16(f[0], radix: 16), let octet = Int(f[1]), let bit = Int(f[2]) else { continue }
            bumble[op] = (octet, bit)
        }
        #expect(bumble.count > 300, "Bumble's table looks truncated: \(bumble.count) entries")
        for p in SupportedCommands.positions {
            let theirs = bumble[p.opcode]
            #expect(theirs?.0 == Int(p.octet) && theirs?.1 == Int(p.bit),
                    "opcode 0x\(String(p.opcode, radix: 16)): ours \(p.octet).\(p.bit), Bumble's \(theirs.map { "\($0.0).\($0.1)" } ?? "none")")
        }
        for op in BoardController.answeredOpcodes where SupportedCommands.position(of: op) == nil {
            #expect(bumble[op] == nil, "opcode 0x\(String(op, radix: 16)) has a Bumble position \(bumble[op]!) missing from our table")
        }
    }
}
