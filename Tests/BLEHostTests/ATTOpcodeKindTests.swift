@testable import BLEHost
import Testing

/// Which opcodes a server answers (Core 6.0 Vol 3 Part F §3.3, §3.4.8).
struct ATTOpcodeKindTests {
    @Test func everyOpcodeHasItsKind() {
        #expect([0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21].allSatisfy { ATTOpcodeKind(opcode: $0) == .response })
        #expect([0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20].allSatisfy { ATTOpcodeKind(opcode: $0) == .request })
        #expect(ATTOpcodeKind(opcode: 0x52) == .command && ATTOpcodeKind(opcode: 0xD2) == .command)  // Write Command, Signed Write Command
        #expect(ATTOpcodeKind(opcode: 0x1B) == .notification && ATTOpcodeKind(opcode: 0x23) == .notification)
        #expect(ATTOpcodeKind(opcode: 0x1D) == .indication && ATTOpcodeKind(opcode: 0x1E) == .confirmation)
        #expect(ATTPDU.confirmation.kind == .confirmation && ATTPDU.readRequest(handle: 1).kind == .request)
    }

    /// A server answers an unknown request with Request Not Supported and stays silent on
    /// responses it cannot decode (Prepare Write Response, Multiple Handle Value Notification)
    /// and on unknown commands.
    @Test func theServerAnswersRequestsOnly() {
        var server = ATTServer(database: AttributeDatabase())
        #expect(server.receive([0x30, 0x01, 0x00], encrypted: false).response == .errorResponse(requestOpcode: 0x30, handle: 0, error: .requestNotSupported))
        #expect(server.receive([0x17, 0x01, 0x00, 0x00, 0x00], encrypted: false).response == nil)
        #expect(server.receive([0x23, 0x01, 0x00, 0x01, 0x00, 0xAA], encrypted: false).response == nil)
        #expect(server.receive([0x70, 0x01], encrypted: false).response == nil)
    }
}
