import Testing
@testable import MCUboot

struct SMPConsoleTests {
    /// Image-state read, SMP v2, sequence 1, empty map. By hand: packet 08 00 00 01 00 01 01 00 A0
    /// (9 octets), length prefix 9 + 2 = 0x000B, CRC16/XMODEM of the packet 0x9831, so the
    /// buffer 00 0B 08 00 00 01 00 01 01 00 A0 98 31 is "AAsIAAABAAEBAKCYMQ==" in base64
    /// (the same bytes smpclient sends; reference/serial.md §4.1).
    @Test func smallPacketEncodesToKnownBytes() {
        let p = SMPPacket(op: .read, version: 1, command: .imageState, sequence: 1, body: .map([]))
        #expect(p.encoded() == [0x08, 0x00, 0x00, 0x01, 0x00, 0x01, 0x01, 0x00, 0xA0])
        #expect(CRC16.xmodem(p.encoded()) == 0x9831)
        #expect(SMPConsoleEncoder.frameBuffer(p) == [0x00, 0x0B, 0x08, 0x00, 0x00, 0x01, 0x00, 0x01, 0x01, 0x00, 0xA0, 0x98, 0x31])
        #expect(SMPConsoleEncoder.encode(p) == [0x06, 0x09] + Array("AAsIAAABAAEBAKCYMQ==".utf8) + [0x0A])
    }

    static func longPacket() -> SMPPacket {
        SMPPacket(op: .write, command: .imageUpload, sequence: 200,
                  body: .map(["off": .int(4096), "data": .bytes(TestImages.payload(400, seed: 7))]))
    }

    /// A long packet becomes a start line and continuation lines, each ≤ 127 octets, each with
    /// base64 text a multiple of 4 characters (MCUboot decodes lines one by one).
    @Test func longPacketSplitsIntoLines() {
        let bytes = SMPConsoleEncoder.encode(Self.longPacket())
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        #expect(bytes.last == 0x0A)
        #expect(lines.count == 5)  // 2 + 8 + 411 + 2 = 423 octets → 564 characters → 124 × 4 + 68
        for (i, line) in lines.enumerated() {
            #expect(line.count + 1 <= 127)
            #expect(Array(line.prefix(2)) == (i == 0 ? [0x06, 0x09] : [0x04, 0x14]))
            #expect((line.count - 2) % 4 == 0)
        }
        #expect(lines.dropLast().allSatisfy { $0.count == 126 })
    }

    @Test func decoderReturnsThePacketInEverySplit() {
        let packet = Self.longPacket()
        let bytes = SMPConsoleEncoder.encode(packet)
        // All at once.
        var d = SMPConsoleDecoder()
        #expect(d.feed(bytes) == [.packet(packet)])
        // One octet at a time.
        d = SMPConsoleDecoder()
        var events: [SMPConsoleDecoder.Event] = []
        for b in bytes { events += d.feed([b]) }
        #expect(events == [.packet(packet)])
        // Every two-piece split.
        for cut in 0...bytes.count {
            var d = SMPConsoleDecoder()
            let e = d.feed(bytes[0..<cut]) + d.feed(bytes[cut...])
            #expect(e == [.packet(packet)], "cut at \(cut)")
        }
        // Random chunks, several packets back to back.
        let stream = bytes + SMPConsoleEncoder.encode(packet) + bytes
        var x: UInt32 = 5
        d = SMPConsoleDecoder()
        events = []
        var i = 0
        while i < stream.count {
            x = x &* 1_664_525 &+ 1_013_904_223
            let n = 1 + Int(x >> 27)
            events += d.feed(stream[i..<min(stream.count, i + n)])
            i += n
        }
        #expect(events == [.packet(packet), .packet(packet), .packet(packet)])
    }

    @Test func badCRCIsRejected() {
        let p = SMPPacket(op: .read, command: .imageState, sequence: 3, body: .map([]))
        var buffer = SMPConsoleEncoder.frameBuffer(p)
        buffer[buffer.count - 1] ^= 0x01
        let line = [0x06, 0x09] + Base64.encode(buffer) + [0x0A]
        var d = SMPConsoleDecoder()
        #expect(d.feed(line) == [.error(.badCRC)])
        // The decoder is usable again afterwards.
        #expect(d.feed(SMPConsoleEncoder.encode(p)) == [.packet(p)])
    }

    /// Console text around frames is skipped, even a log line without a newline before a frame;
    /// stray continuations are ignored; an interrupted frame is reported.
    @Test func resynchronisesOnGarbage() {
        let p = SMPPacket(op: .writeResponse, command: .imageUpload, sequence: 9, body: .map(["rc": .int(0), "off": .int(100)]))
        let framed = SMPConsoleEncoder.encode(p)
        var d = SMPConsoleDecoder()
        let noise = Array("*** Booting MCUboot ***\r\n".utf8) + [0x04, 0x14] + Array("AAAA\n".utf8) + Array("log without newline".utf8)
        #expect(d.feed(noise + framed + Array("more log\n".utf8)) == [.packet(p)])
        let long = SMPConsoleEncoder.encode(Self.longPacket())
        let firstLine = long.prefix(through: long.firstIndex(of: 0x0A)!)
        #expect(d.feed(Array(firstLine) + framed) == [.error(.interrupted), .packet(p)])
        #expect(d.feed([0x06, 0x09] + Array("!!!!\n".utf8)) == [.error(.badBase64)])
    }

    @Test func lengthPrefixIsChecked() {
        let p = SMPPacket(op: .read, command: .echo, sequence: 1, body: .map([]))
        var buffer = SMPConsoleEncoder.frameBuffer(p)
        buffer[1] -= 1  // says one octet fewer than follow
        var d = SMPConsoleDecoder()
        #expect(d.feed([0x06, 0x09] + Base64.encode(buffer) + [0x0A]) == [.error(.lengthMismatch(declared: Int(buffer[1]), decoded: buffer.count - 2))])
        // Header length disagreeing with the payload: CRC fine, packet refused.
        var raw = p.encoded()
        raw[3] = 5
        let crc = CRC16.xmodem(raw)
        let frame = [0x00, UInt8(raw.count + 2)] + raw + [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        #expect(d.feed([0x06, 0x09] + Base64.encode(frame) + [0x0A]) == [.error(.badPacket(.lengthMismatch(header: 5, actual: 1)))])
    }

    /// Random console bytes never trap the decoder.
    @Test func garbageNeverTraps() {
        var d = SMPConsoleDecoder()
        var x: UInt32 = 17
        for _ in 0..<20_000 {
            x = x &* 1_664_525 &+ 1_013_904_223
            let pick = Int(x >> 24) % 8
            let b: UInt8 = [0x06, 0x09, 0x04, 0x14, 0x0A, UInt8(ascii: "A"), UInt8(ascii: "="), UInt8(x >> 16 & 0xFF)][pick]
            _ = d.feed([b])
        }
    }
}
