import HCITransport
import ReflectorFirmware
import Testing

/// The capture formats' byte layouts, on files written out octet by octet here: pcap
/// (draft-ietf-opsawg-pcap §4–5), pcapng (draft-ietf-opsawg-pcapng §4), btsnoop 2001 (BlueZ's
/// monitor format) and the Bluetooth link types' pseudo-headers (libpcap `pcap/bluetooth.h`).
struct PacketCaptureReaderTests {
    /// HCI Reset (command) and its Command Complete (event).
    static let reset: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
    static let complete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]

    @Test func pcapLittleEndianMicrosecondsWithDirection() {
        let file: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 0x02, 0x00, 0x04, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 201, 0, 0, 0]
            // ts 10 s + 250 µs, 8 octets: direction 0 (sent), then the command
            + [10, 0, 0, 0, 0xFA, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0] + [0, 0, 0, 0] + Self.reset
            + [10, 0, 0, 0, 0xFB, 0, 0, 0, 11, 0, 0, 0, 11, 0, 0, 0] + [0, 0, 0, 1] + Self.complete
        let read = PcapReader.parse(file)
        #expect(read.error == nil)
        #expect(read.packets.map(\.packet) == [HCIPacket(indicator: .command, bytes: [0x03, 0x0C, 0x00]),
                                               HCIPacket(indicator: .event, bytes: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])])
        #expect(read.packets.map(\.direction) == [.hostToController, .controllerToHost])
        #expect(read.packets.map(\.unixMicroseconds) == [10_000_250, 10_000_251])
        #expect(read.packets.map(\.offset) == [24, 48])
    }

    @Test func pcapBigEndianNanosecondsH4AndMonitor() {
        // Link type 187: the H4 packet alone, no direction; nanosecond fractions.
        let h4: [UInt8] = [0xA1, 0xB2, 0x3C, 0x4D, 0x00, 0x02, 0x00, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 187]
            + [0, 0, 0, 1, 0, 0, 0x03, 0xE8, 0, 0, 0, 4, 0, 0, 0, 4] + Self.reset
        let a = PcapReader.parse(h4)
        #expect(a.error == nil && a.packets.count == 1)
        #expect(a.packets[0].direction == nil && a.packets[0].unixMicroseconds == 1_000_001)
        // Link type 254: adapter 2, opcode 5 (ACL received), big-endian pseudo-header.
        let monitor: [UInt8] = [0xA1, 0xB2, 0xC3, 0xD4, 0x00, 0x02, 0x00, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 254]
            + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 8] + [0, 2, 0, 5] + [0x40, 0x20, 0x00, 0x00]
        let b = PcapReader.parse(monitor)
        #expect(b.error == nil)
        #expect(b.packets == [CapturedPacket(packet: HCIPacket(indicator: .aclData, bytes: [0x40, 0x20, 0x00, 0x00]), direction: .controllerToHost,
                                             adapter: 2, unixMicroseconds: 0, offset: 24)])
        // A monitor note (opcode 12) is not a packet: passed over.
        var note = monitor
        note[24 + 16 + 3] = 12
        #expect(PcapReader.parse(note).packets.isEmpty && PcapReader.parse(note).error == nil)
    }

    @Test func pcapngInterfacesResolutionAndBlocks() {
        func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
            let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
            let n = UInt32(12 + padded.count)
            return le(type) + le(n) + padded + le(n)
        }
        let shb = block(0x0A0D_0D0A, le(0x1A2B_3C4D) + [1, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 8))
        // Interface 0: Ethernet (passed over). Interface 1: 201 with if_tsresol 9 (nanoseconds).
        let ethernet = block(1, [1, 0, 0, 0] + le(65535))
        let bluetooth = block(1, [201, 0, 0, 0] + le(65535) + [9, 0, 1, 0, 9, 0, 0, 0] + [0, 0, 0, 0])
        let ts: UInt64 = 5_000_000_123  // 5 s + 123 ns
        let epb = block(6, le(1) + le(UInt32(ts >> 32)) + le(UInt32(ts & 0xFFFF_FFFF)) + le(8) + le(8) + [0, 0, 0, 0] + Self.reset)
        let ether = block(6, le(0) + le(0) + le(0) + le(4) + le(4) + [1, 2, 3, 4])
        let nameResolution = block(4, [0, 0, 0, 0])
        let file = shb + ethernet + bluetooth + ether + nameResolution + epb
        let read = PcapngReader.parse(file)
        #expect(read.error == nil)
        #expect(read.packets.count == 1)
        #expect(read.packets.first?.packet == HCIPacket(indicator: .command, bytes: [0x03, 0x0C, 0x00]))
        #expect(read.packets.first?.adapter == 256)  // interface 1
        #expect(read.packets.first?.unixMicroseconds == 5_000_000)
        #expect(read.packets.first?.offset == file.count - epb.count)
        // A packet of an interface never described, and a trailing length that disagrees.
        let orphan = PcapngReader.parse(shb + block(6, le(3) + le(0) + le(0) + le(0) + le(0)))
        #expect(orphan.error == CaptureFileError(offset: shb.count, "packet block of interface 3, which has no interface description block before it"))
        var bad = shb + bluetooth
        bad[bad.count - 1] = 0x7F
        #expect(PcapngReader.parse(bad).error?.offset == shb.count)
        #expect(PcapngReader.parse(bad).error?.message.hasPrefix("malformed block: the trailing total length") == true)
    }

    @Test func monitorBTSnoopFlagsHoldAdapterAndOpcode() {
        var file = BTSnoopFileHeader.identification + [0, 0, 0, 1, 0, 0, 0x07, 0xD1]
        // 3 octets, flags: adapter 1, opcode 2 (command); timestamp 0x00DCDDB30F2F8000 + 7 (Unix 7 µs).
        let ts = UInt64(BTSnoopTimestamp.unixEpochOffset) + 7
        file += [0, 0, 0, 3, 0, 0, 0, 3, 0, 1, 0, 2, 0, 0, 0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: ts >> (56 - 8 * $0)) } + [0x03, 0x0C, 0x00]
        // A new-index record (opcode 0): not a packet.
        file += [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [0xAA]
        let read = MonitorBTSnoopReader.parse(file)
        #expect(read.error == nil)
        #expect(read.packets == [CapturedPacket(packet: HCIPacket(indicator: .command, bytes: [0x03, 0x0C, 0x00]), direction: .hostToController,
                                                adapter: 1, unixMicroseconds: 7, offset: 16)])
        #expect(MonitorBTSnoopReader.encode(read.packets) == Array(file.prefix(16 + 24 + 3)))
        // Cut inside the second record's header.
        let cut = MonitorBTSnoopReader.parse(Array(file.prefix(16 + 24 + 3 + 10)))
        #expect(cut.error == CaptureFileError(offset: 43, "record header cut short (10 of 24 octets): the capture is truncated"))
        #expect(cut.packets.count == 1)
    }

}

private func le(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
