import ReflectorFirmware
import EmulatorMath
@testable import HCITransport
import Testing
import TestSupport

struct H4FramerTests {
    /// A mixed stream: every packet type, empty and maximal 8-bit payloads, a multi-octet ACL length.
    static let packets: [HCIPacket] = {
        func make() throws -> [HCIPacket] {
            [
                try .command(opcode: HCIOpcode.reset),
                try .event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00]),
                try .command(opcode: HCIOpcode.leSetEventMask, parameters: Array(0..<255)),
                try .acl(handle: 0x0040, data: [0x05, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00, 0x00, 0x00]),
                try .acl(handle: 0x0041, packetBoundary: 1, data: []),
                try .event(code: 0x3E, parameters: (0..<255).map { UInt8(255 - $0) }),
                try .acl(handle: 0x0040, data: (0..<300).map { UInt8(truncatingIfNeeded: $0) }),
                HCIPacket(indicator: .synchronousData, bytes: [0x01, 0x00, 0x03, 0x11, 0x22, 0x33]),
                HCIPacket(indicator: .isoData, bytes: [0x02, 0x00, 0x02, 0x00, 0xAB, 0xCD]),
                try .event(code: 0x13, parameters: [0x02, 0x01, 0x00, 0x02, 0x00, 0x40, 0x00, 0x03, 0x00]),
                try .event(code: 0x10, parameters: []),
            ]
        }
        return try! make()
    }()

    static let stream: [UInt8] = packets.flatMap(\.h4Bytes)
    static var expected: [H4FramerOutput] { packets.map { .packet($0) } }

    /// The framer under the verifier: its state is the octets it holds towards the next packet.
    static func verifier(maximumPacketLength: Int = H4Framer.defaultMaximumPacketLength)
        -> StreamDecoderVerifier<H4Framer, Int> {
        StreamDecoderVerifier { H4Framer(maximumPacketLength: maximumPacketLength) }
    }

    /// Whole, one octet at a time, all packets in one buffer, every split point and 200 seeded
    /// chunkings (empty chunks included) give the same packets; inside a packet the framer holds
    /// exactly the octets received of it, and nothing between packets.
    @Test func everyChunkingGivesTheSamePackets() throws {
        let pairs = Self.packets.map { (input: $0.h4Bytes, expected: [H4FramerOutput.packet($0)]) }
        let run = try Self.verifier().verify(stream: pairs, partial: { $0 }, randomChunkings: 200)
        // The reference drip, each packet alone, all at once, every split, per packet, random.
        #expect(run.runs == 1 + Self.packets.count + 1 + (Self.stream.count + 1) + 1 + 200)
    }

    @Test func countersAndOffsetsAfterAStream() {
        var framer = H4Framer()
        #expect(framer.feed(Self.stream) == Self.expected)
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.streamOffset == Self.stream.count)
        #expect(framer.packetCount == Self.packets.count)
        #expect(framer.skippedByteCount == 0)
    }

    @Test func partialPacketIsKeptUntilComplete() throws {
        var framer = H4Framer()
        framer.append([0x02, 0x40, 0x20, 0x03, 0x00, 0xAA])
        #expect(try framer.next() == nil)
        #expect(framer.bufferedByteCount == 6)
        framer.append([0xBB, 0xCC])
        #expect(try framer.next() == (try HCIPacket.acl(handle: 0x040, data: [0xAA, 0xBB, 0xCC])))
        #expect(try framer.next() == nil)
    }

    @Test func garbageIsReportedWithOffsetsAndSkipped() throws {
        // 0x00 (Bumble's resync padding), 0xFF and 0x06 (first unassigned indicator) between packets.
        let reset = try HCIPacket.command(opcode: HCIOpcode.reset).h4Bytes
        let complete = try HCIPacket.event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00]).h4Bytes
        let stream = [0x00] + reset + [0xFF, 0x06] + complete + [0x00]
        let expected: [H4FramerOutput] = [
            .framingError(.unknownIndicator(byte: 0x00, offset: 0)),
            .packet(try HCIPacket(h4: reset)),
            .framingError(.unknownIndicator(byte: 0xFF, offset: 5)),
            .framingError(.unknownIndicator(byte: 0x06, offset: 6)),
            .packet(try HCIPacket(h4: complete)),
            .framingError(.unknownIndicator(byte: 0x00, offset: 14)),
        ]
        try Self.verifier().verify(stream: [(stream, expected)])
        var framer = H4Framer()
        _ = framer.feed(stream)
        #expect(framer.skippedByteCount == 4)
    }

    @Test func lengthOverTheGuardIsAnErrorAndTheFramerResyncs() throws {
        // An ACL header declaring 200 octets against a 100-octet guard: reported as soon as the
        // header is in, before any payload; then the framer rescans from the next octet.
        let reset = try HCIPacket.command(opcode: HCIOpcode.reset)
        let stream: [UInt8] = [0x02, 0x00, 0x00, 0xC8, 0x00] + reset.h4Bytes
        let expected: [H4FramerOutput] = [
            .framingError(.packetTooLong(indicator: .aclData, length: 204, maximum: 100, offset: 0)),
            .framingError(.unknownIndicator(byte: 0x00, offset: 1)),
            .framingError(.unknownIndicator(byte: 0x00, offset: 2)),
            .framingError(.unknownIndicator(byte: 0xC8, offset: 3)),
            .framingError(.unknownIndicator(byte: 0x00, offset: 4)),
            .packet(reset),
        ]
        try Self.verifier(maximumPacketLength: 100).verify(stream: [(stream, expected)])
        var framer = H4Framer(maximumPacketLength: 100)
        #expect(framer.feed([0x02, 0x00, 0x00, 0xC8, 0x00]).first
            == .framingError(.packetTooLong(indicator: .aclData, length: 204, maximum: 100, offset: 0)))
        // The default guard is Linux's HCI_MAX_FRAME_SIZE: a 1024-octet ACL passes, 1025 does not.
        var linux = H4Framer()
        let ok = try HCIPacket.acl(handle: 1, data: Array(repeating: 7, count: 1024))
        #expect(linux.feed(ok.h4Bytes) == [.packet(ok)])
        #expect(linux.feed([0x02, 0x01, 0x00, 0x01, 0x04]).first
            == .framingError(.packetTooLong(indicator: .aclData, length: 1029, maximum: 1028, offset: 1029)))
    }

    @Test func offsetsStayRightAcrossBufferCompaction() throws {
        let reset = try HCIPacket.command(opcode: HCIOpcode.reset).h4Bytes
        var framer = H4Framer()
        var packets = 0
        let bulk = Array([[UInt8]](repeating: reset, count: 1100).joined())
        for _ in 0..<3 {
            // A big chunk ending mid-packet leaves > 4096 consumed octets and a partial tail,
            // so the next append moves the tail to the front of the buffer.
            for output in framer.feed(bulk + reset.prefix(2)) { if case .packet = output { packets += 1 } }
            for output in framer.feed(reset.suffix(2)) { if case .packet = output { packets += 1 } }
        }
        #expect(packets == 3 * 1101)
        #expect(framer.feed([0x07]) == [.framingError(.unknownIndicator(byte: 0x07, offset: 3 * 4404))])
        #expect(framer.streamOffset == 3 * 4404 + 1)
    }

    @Test func randomBytesNeverTrapAndEveryOctetIsAccountedFor() {
        for seed in UInt64(1)...100 {
            var rng = SplitMix64(seed: seed)
            // Bias towards valid indicators so that headers, lengths and partial packets happen.
            let stream: [UInt8] = (0..<3000).map { _ in
                Bool.random(using: &rng) ? UInt8.random(in: 1...5, using: &rng) : UInt8.random(in: 0...255, using: &rng)
            }
            var framer = H4Framer(maximumPacketLength: Int.random(in: 0...1100, using: &rng))
            var decodedOctets = 0
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + Int.random(in: 1...64, using: &rng))
                for output in framer.feed(stream[offset..<end]) {
                    if case .packet(let packet) = output { decodedOctets += packet.h4Bytes.count }
                }
                offset = end
            }
            #expect(decodedOctets + framer.skippedByteCount + framer.bufferedByteCount == stream.count, "seed \(seed)")
            #expect(framer.streamOffset + framer.bufferedByteCount == stream.count)
        }
    }
}
