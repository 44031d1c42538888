import Testing
@testable import ReflectorFirmware
import TestSupport

@Suite struct HCIPacketTests {
    @Test func commandPacketLayout() throws {
        let p = HCIPacket(opcode: HCIOpcode.leCSProcedureEnable, parameters: [0x40, 0x00, 0x01, 0x01])
        #expect(Hex.string(p.encode(), uppercase: true) == "94200440000101")
        #expect(p.ogf == 0x08)
        #expect(p.ocf == 0x094)
        #expect(try HCIPacket(command: p.encode()) == p)
    }

    @Test func commandPacketLengthChecks() {
        DecoderChecks.everyTruncationIsTruncated(Hex.bytes("9420 04 40000101")) { b throws(DecodeError) in try HCIPacket(command: b) }
        DecoderChecks.extraOctetIsTrailing(Hex.bytes("9420 04 40000101")) { b throws(DecodeError) in try HCIPacket(command: b) }
        DecoderChecks.fuzz(seed: 1, valid: Hex.bytes("9420 04 40000101")) { b throws(DecodeError) in try HCIPacket(command: b) }
    }

    @Test func eventPacketAndLEMeta() throws {
        let e = HCIPacket(leSubevent: 0x33, body: [0x00])
        #expect(Hex.string(e.encode(), uppercase: true) == "3E023300")
        #expect(e.leSubeventCode == 0x33)
        #expect(Array(try e.leSubeventBody(0x33)) == [0x00])
        #expect(throws: DecodeError.unexpectedCode(expected: 0x31, found: 0x33)) { _ = try e.leSubeventBody(0x31) }
        let notMeta = HCIPacket(eventCode: 0x0E, parameters: [1, 2, 3])
        #expect(notMeta.leSubeventCode == nil)
        #expect(throws: DecodeError.unexpectedCode(expected: 0x3E, found: 0x0E)) { _ = try notMeta.leSubeventBody(0x33) }
        #expect(throws: DecodeError.truncated(field: "Subevent_Code", needed: 1)) {
            _ = try HCIPacket(eventCode: 0x3E, parameters: []).leSubeventBody(0x33)
        }
        #expect(try HCIPacket(event: e.encode()) == e)
        DecoderChecks.everyTruncationIsTruncated(e.encode()) { b throws(DecodeError) in try HCIPacket(event: b) }
        DecoderChecks.extraOctetIsTrailing(e.encode()) { b throws(DecodeError) in try HCIPacket(event: b) }
        DecoderChecks.fuzz(seed: 2, valid: e.encode()) { b throws(DecodeError) in try HCIPacket(event: b) }
    }

    @Test func commandStatusLayout() throws {
        let s = CommandStatusEvent(status: .success, numHCIPackets: 1, opcode: LECSProcedureEnable.opcode)
        #expect(Hex.string(s.packet.encode(), uppercase: true) == "0F0400019420")
        #expect(try CommandStatusEvent.decode(packet: s.packet) == s)
        #expect(throws: DecodeError.invalidValue(field: "Status", value: 0xEE)) { _ = try CommandStatusEvent.decode(Hex.bytes("EE019420")) }
        DecoderChecks.everyTruncationIsTruncated(s.encode()) { b throws(DecodeError) in try CommandStatusEvent.decode(b) }
        DecoderChecks.extraOctetIsTrailing(s.encode()) { b throws(DecodeError) in try CommandStatusEvent.decode(b) }
        DecoderChecks.fuzz(seed: 3, valid: s.encode()) { b throws(DecodeError) in try CommandStatusEvent.decode(b) }
        #expect(throws: DecodeError.unexpectedCode(expected: 0x0F, found: 0x0E)) {
            _ = try CommandStatusEvent.decode(packet: HCIPacket(eventCode: 0x0E, parameters: s.encode()))
        }
    }

    @Test func commandCompleteLayout() throws {
        let c = CommandCompleteEvent(opcode: LECSSetDefaultSettings.opcode, status: .success, connectionHandle: 0x0040)
        #expect(Hex.string(c.packet.encode(), uppercase: true) == "0E06018D20004000")
        #expect(c.status == .success)
        #expect(try CommandCompleteEvent.decode(packet: c.packet) == c)
        let plain = CommandCompleteEvent(opcode: LECSSetChannelClassification.opcode, status: .invalidHCICommandParameters)
        #expect(Hex.string(plain.encode(), uppercase: true) == "01922012")
        DecoderChecks.everyTruncationIsTruncated(Array(c.encode().prefix(3))) { b throws(DecodeError) in try CommandCompleteEvent.decode(b) }
        DecoderChecks.fuzz(seed: 4, valid: c.encode()) { b throws(DecodeError) in try CommandCompleteEvent.decode(b) }
    }
}
