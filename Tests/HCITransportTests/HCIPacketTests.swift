import ReflectorFirmware
import Testing
@testable import HCITransport

struct HCIPacketTests {
    @Test func resetCommandEncodesAsInTheReference() throws {
        // HCI_Reset (OGF 0x03, OCF 0x0003): 01 03 0C 00 (reference/serial.md §1.2).
        let reset = try HCIPacket.command(opcode: HCIOpcode.reset)
        #expect(reset.h4Bytes == [0x01, 0x03, 0x0C, 0x00])
        #expect(reset.opcode == 0x0C03)
        #expect(reset.commandParameterLength == 0)
        #expect(reset.eventCode == nil && reset.aclHandle == nil)
        #expect(try HCIPacket(h4: [0x01, 0x03, 0x0C, 0x00]) == reset)
    }

    @Test func commandCompleteEventFields() throws {
        let event = try HCIPacket(h4: [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        #expect(event.indicator == .event)
        #expect(event.eventCode == 0x0E)
        #expect(event.eventParameterLength == 4)
        #expect(event.payload.map(Array.init) == [0x01, 0x03, 0x0C, 0x00])
        #expect(event.opcode == nil)
        #expect(try HCIPacket.event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00]) == event)
    }

    @Test func aclHeaderFields() throws {
        // Handle 0x040, PB = 0b10 (first automatically flushable), BC = 0, 3 octets:
        // field = 0x0040 | 0b10 << 12 = 0x2040 → 40 20, length 03 00.
        let acl = try HCIPacket.acl(handle: 0x040, data: [0xAA, 0xBB, 0xCC])
        #expect(acl.h4Bytes == [0x02, 0x40, 0x20, 0x03, 0x00, 0xAA, 0xBB, 0xCC])
        #expect(acl.aclHandle == 0x040)
        #expect(acl.aclPacketBoundary == 0b10)
        #expect(acl.aclBroadcast == 0)
        #expect(acl.aclDataLength == 3)
        #expect(acl.declaredPayloadLength == 3)
        let big = try HCIPacket.acl(handle: 0xFFF, packetBoundary: 1, broadcast: 1, data: Array(repeating: 0, count: 300))
        #expect(big.bytes.prefix(4) == [0xFF, 0x5F, 0x2C, 0x01])
    }

    @Test func accessorsReturnNilOnShortPackets() {
        let short = HCIPacket(indicator: .aclData, bytes: [0x01])
        #expect(short.aclHandle == nil && short.aclDataLength == nil && short.declaredPayloadLength == nil)
        #expect(short.payload == nil)
        #expect(HCIPacket(indicator: .event, bytes: []).eventCode == nil)
        #expect(HCIPacket(indicator: .command, bytes: [0x03]).opcode == nil)
    }

    @Test func isoLengthIsFourteenBits() {
        // Length field 0xFFFF: the top two bits are RFU, so the length is 0x3FFF.
        #expect(HCIPacketIndicator.isoData.payloadLength(inHeader: [0x01, 0x00, 0xFF, 0xFF]) == 0x3FFF)
        #expect(HCIPacketIndicator.synchronousData.payloadLength(inHeader: [0x01, 0x00, 0x30]) == 0x30)
        #expect(HCIPacketIndicator.aclData.payloadLength(inHeader: [0x01, 0x00, 0x34, 0x12]) == 0x1234)
        #expect(HCIPacketIndicator.event.payloadLength(inHeader: [0x0E]) == nil)
    }

    @Test func wholePacketParsingErrors() {
        #expect(throws: HCIPacketError.empty) { try HCIPacket(h4: []) }
        #expect(throws: HCIPacketError.unknownIndicator(0x06)) { try HCIPacket(h4: [0x06, 0x00]) }
        #expect(throws: HCIPacketError.lengthMismatch(declared: nil, actual: 1)) { try HCIPacket(h4: [0x04, 0x0E]) }
        #expect(throws: HCIPacketError.lengthMismatch(declared: 4, actual: 3)) {
            try HCIPacket(h4: [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C])
        }
        #expect(throws: HCIPacketError.payloadTooLong(indicator: .command, length: 256, maximum: 255)) {
            try HCIPacket.command(opcode: HCIOpcode.leSetEventMask, parameters: Array(repeating: 0, count: 256))
        }
    }
}
