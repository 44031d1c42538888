import EmulatorMath
import Testing
@testable import MCUboot
import TestSupport

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

    /// Console traffic as the verifier feeds it: frames, console text around them, a stray
    /// continuation, a corrupted frame and an interrupted one, each with what the decoder must say.
    static func consolePairs() -> [(input: [UInt8], expected: [SMPConsoleDecoder.Event])] {
        let small = SMPPacket(op: .read, version: 1, command: .imageState, sequence: 1, body: .map([]))
        let answer = SMPPacket(op: .writeResponse, command: .imageUpload, sequence: 9, body: .map(["rc": .int(0), "off": .int(100)]))
        let long = longPacket()
        var corrupted = SMPConsoleEncoder.frameBuffer(small)
        corrupted[corrupted.count - 1] ^= 0x01
        let longBytes = SMPConsoleEncoder.encode(long)
        let longFirstLine = Array(longBytes.prefix(through: longBytes.firstIndex(of: 0x0A)!))
        return [
            (Array("*** Booting MCUboot ***\r\n".utf8), []),
            (SMPConsoleEncoder.encode(small), [.packet(small)]),
            ([0x04, 0x14] + Array("AAAA\n".utf8), []),
            (longBytes, [.packet(long)]),
            (Array("log without newline".utf8) + SMPConsoleEncoder.encode(answer), [.packet(answer)]),
            ([0x06, 0x09] + Base64.encode(corrupted) + [0x0A], [.error(.badCRC)]),
            (longFirstLine + SMPConsoleEncoder.encode(small, lineLength: 16), [.error(.interrupted), .packet(small)]),
            (SMPConsoleEncoder.encode(long, lineLength: 40), [.packet(long)]),
            (Array("more log\n".utf8), []),
        ]
    }

    /// Whole, one octet at a time, everything in one buffer, every split point and seeded
    /// random chunkings give the same packets and errors, and "inside a frame" is reported at
    /// the same octets however the console was read.
    @Test func decoderGivesTheSameEventsInEveryChunking() throws {
        try StreamDecoderVerifier { SMPConsoleDecoder() }.verify(stream: Self.consolePairs())
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

    /// A frame right behind a console line that overflowed the line limit is still read: the
    /// marker that starts it sits at the start of the emptied line buffer, where it must count as
    /// much as a marker in the middle of a line.
    @Test(arguments: [1, 2, 3])
    func frameRightAfterAnOverflowingLineIsRead(lines: Int) {
        let p = SMPPacket(op: .writeResponse, command: .imageUpload, sequence: 9, body: .map(["rc": .int(0), "off": .int(100)]))
        var d = SMPConsoleDecoder()
        let overflow = [UInt8](repeating: UInt8(ascii: "x"), count: lines * (d.maximumLineLength + 1))
        #expect(d.feed(overflow + SMPConsoleEncoder.encode(p)) == [.packet(p)])
        #expect(d.feed(SMPConsoleEncoder.encode(Self.longPacket())) == [.packet(Self.longPacket())])
    }

    /// A frame whose start marker straddles the line limit is still read: 1,024 octets of
    /// garbage put the frame's 0x06 at octet 1,025, the one that overflows the line, and its 0x09
    /// right after (found by the smp-console fuzz target; Fuzz/regressions/smp-console).
    @Test(arguments: [-2, -1, 0, 1, 2, 1024, 1025])
    func frameStartingAtTheLineLimitIsRead(offset: Int) {
        let p = SMPPacket(op: .writeResponse, command: .imageUpload, sequence: 9, body: .map(["rc": .int(0), "off": .int(100)]))
        var d = SMPConsoleDecoder()
        let garbage = [UInt8](repeating: UInt8(ascii: "x"), count: d.maximumLineLength + offset)
        #expect(d.feed(garbage + SMPConsoleEncoder.encode(p)) == [.packet(p)])
        // A marker alone at the limit counts as one too: a frame start opens an (empty) frame
        // that the next frame interrupts; a continuation with no frame open is a stray, ignored.
        for (marker, expected) in [([UInt8]([0x06, 0x09]), [SMPConsoleDecoder.Event.error(.interrupted), .packet(p)]), ([0x04, 0x14], [.packet(p)])] {
            var e = SMPConsoleDecoder()
            _ = e.feed([UInt8](repeating: 0x20, count: e.maximumLineLength + offset) + marker + [0x0A])
            #expect(e.feed(SMPConsoleEncoder.encode(p)) == expected, "marker \(marker)")
        }
    }

    /// After console garbage of any kind (seeded: marker octets, newlines, base64 characters,
    /// any octet; up to 3000 octets, so some lines overflow the line limit) the decoder still
    /// decodes the next frame to exactly its packet, whatever state the garbage left it in.
    @Test func recoversAfterGarbage() {
        let p = SMPPacket(op: .writeResponse, command: .imageUpload, sequence: 9, body: .map(["rc": .int(0), "off": .int(100)]))
        let frame = SMPConsoleEncoder.encode(p)
        let long = Self.longPacket()
        for seed in UInt64(1)...300 {
            var rng = SplitMix64(seed: seed)
            var d = SMPConsoleDecoder()
            let alphabet: [UInt8] = [0x06, 0x09, 0x04, 0x14, 0x0A, 0x0D, UInt8(ascii: "A"), UInt8(ascii: "=")]
            // Every tenth run has no newline at all, so its one line overflows.
            let newlines = seed % 10 != 0
            let garbage: [UInt8] = (0..<rng.below(3000)).map { _ in
                let b = rng.below(3) == 0 ? rng.byte() : alphabet[rng.below(alphabet.count)]
                return !newlines && b == 0x0A ? 0x20 : b
            }
            _ = d.feed(garbage)
            // The frame may follow the garbage mid-line; a frame the garbage left open is interrupted.
            let events = d.feed(frame)
            #expect(events.last == .packet(p), "seed \(seed): \(events)")
            #expect(events.dropLast().allSatisfy { $0 == .error(.interrupted) }, "seed \(seed): \(events)")
            #expect(!d.isInsideFrame)
            #expect(d.feed(SMPConsoleEncoder.encode(long)) == [.packet(long)], "seed \(seed)")
        }
    }
}
