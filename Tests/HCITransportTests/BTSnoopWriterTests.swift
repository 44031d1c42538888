import ReflectorFirmware
import Testing
@testable import HCITransport

struct BTSnoopWriterTests {
    @Test func headerBytesForH4() {
        // "btsnoop\0", version 1, datalink 1002 = 0x3EA, big-endian.
        #expect(BTSnoopWriter().header == [
            0x62, 0x74, 0x73, 0x6E, 0x6F, 0x6F, 0x70, 0x00,
            0x00, 0x00, 0x00, 0x01,
            0x00, 0x00, 0x03, 0xEA,
        ])
    }

    @Test func headerBytesForUnencapsulated() throws {
        #expect(try BTSnoopWriter(datalink: .hciUnencapsulated).header.suffix(4) == [0x00, 0x00, 0x03, 0xE9])
        #expect(throws: BTSnoopError.unsupportedDatalink(2001)) { try BTSnoopWriter(datalink: .linuxMonitor) }
    }

    @Test func resetRecordBytesWorkedByHand() throws {
        // HCI_Reset sent one second after the Unix epoch:
        // timestamp = 0x00DCDDB30F2F8000 + 1 000 000 (0xF4240) = 0x00DCDDB30F3EC240.
        // Original = included = 4 (indicator + 3-octet header), flags 2 (command, sent), drops 0.
        let record = BTSnoopRecord(
            packet: try .command(opcode: HCIOpcode.reset), direction: .hostToController,
            timestamp: BTSnoopTimestamp(unixMicroseconds: 1_000_000))
        #expect(try BTSnoopWriter().encode(record) == [
            0x00, 0x00, 0x00, 0x04,
            0x00, 0x00, 0x00, 0x04,
            0x00, 0x00, 0x00, 0x02,
            0x00, 0x00, 0x00, 0x00,
            0x00, 0xDC, 0xDD, 0xB3, 0x0F, 0x3E, 0xC2, 0x40,
            0x01, 0x03, 0x0C, 0x00,
        ])
    }

    @Test func unencapsulatedEventRecordHasNoIndicator() throws {
        // Command Complete for Reset, received: flags 3, length 6 (no indicator in 1001),
        // 7 drops so far, timestamp exactly the Unix epoch.
        let record = BTSnoopRecord(
            packet: try .event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00]), direction: .controllerToHost,
            timestamp: BTSnoopTimestamp(unixMicroseconds: 0), cumulativeDrops: 7)
        #expect(try BTSnoopWriter(datalink: .hciUnencapsulated).encode(record) == [
            0x00, 0x00, 0x00, 0x06,
            0x00, 0x00, 0x00, 0x06,
            0x00, 0x00, 0x00, 0x03,
            0x00, 0x00, 0x00, 0x07,
            0x00, 0xDC, 0xDD, 0xB3, 0x0F, 0x2F, 0x80, 0x00,
            0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00,
        ])
    }

    @Test func flagsAsBlueZAndBumbleWriteThem() throws {
        let cmd = try HCIPacket.command(opcode: HCIOpcode.reset)
        let evt = try HCIPacket.event(code: 0x10, parameters: [0])
        let acl = try HCIPacket.acl(handle: 1, data: [])
        #expect(BTSnoopPacketFlags(packet: cmd, direction: .hostToController).rawValue == 2)
        #expect(BTSnoopPacketFlags(packet: evt, direction: .controllerToHost).rawValue == 3)
        #expect(BTSnoopPacketFlags(packet: acl, direction: .hostToController).rawValue == 0)
        #expect(BTSnoopPacketFlags(packet: acl, direction: .controllerToHost).rawValue == 1)
    }

    @Test func truncatedRecordWritesTheOriginalLength() throws {
        let record = BTSnoopRecord(
            packet: HCIPacket(indicator: .aclData, bytes: [0x01, 0x20, 0x10, 0x00]),
            flags: BTSnoopPacketFlags(rawValue: 1), timestamp: BTSnoopTimestamp(microsecondsSinceYearZero: 0),
            truncatedOctetCount: 16)
        #expect(try BTSnoopWriter().encode(record).prefix(8) == [0, 0, 0, 21, 0, 0, 0, 5])
        #expect(record.originalLength(in: .hciUnencapsulated) == 20)
    }

    @Test func unencapsulatedRejectsWhatItCannotSay() throws {
        let writer = try BTSnoopWriter(datalink: .hciUnencapsulated)
        let t = BTSnoopTimestamp(unixMicroseconds: 0)
        let sco = HCIPacket(indicator: .synchronousData, bytes: [0, 0, 0])
        let iso = HCIPacket(indicator: .isoData, bytes: [0, 0, 0, 0])
        let event = try HCIPacket.event(code: 0x0E, parameters: [])
        for (packet, direction) in [(sco, BTSnoopDirection.controllerToHost), (iso, .hostToController), (event, .hostToController)] {
            let record = BTSnoopRecord(packet: packet, direction: direction, timestamp: t)
            #expect(throws: BTSnoopError.notRepresentable(indicator: packet.indicator, flags: record.flags, datalink: .hciUnencapsulated)) {
                try writer.encode(record)
            }
        }
        // The H4 datalink says all of them.
        for packet in [sco, iso, event] {
            _ = try BTSnoopWriter().encode(BTSnoopRecord(packet: packet, direction: .hostToController, timestamp: t))
        }
    }
}
