import Testing
import FirmwareHarness

/// The harness framing: frames round-trip, and hostile octets are refused with the error the
/// host sees, after which the next good frame still decodes.
struct FrameDecoderTests {
    func frame(_ type: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var sink = ByteSink()
        FrameFormat.write(type: type, payload: payload, to: &sink)
        return sink.bytes
    }

    func decode(_ bytes: [UInt8]) -> [FrameEvent] {
        var decoder = FrameDecoder()
        return bytes.compactMap { decoder.push($0) }
    }

    @Test func framesRoundTrip() {
        let payloads: [[UInt8]] = [[], [1], Array(0..<255), [UInt8](repeating: 0xA5, count: FrameFormat.maxPayload)]
        let stream = payloads.enumerated().flatMap { frame(UInt8($0.offset), $0.element) }
        #expect(decode(stream) == payloads.enumerated().map { .frame(type: UInt8($0.offset), payload: $0.element) })
    }

    @Test func crcIsCCITTFalse() {
        #expect(CRC16.of(Array("123456789".utf8)) == 0x29B1)
    }

    @Test func hostileOctetsAreRefusedAndTheStreamRecovers() {
        var bad = frame(2, [1, 2, 3])
        bad[bad.count - 2] ^= 0xFF
        let good = frame(4, [])
        let stream = [0x00, 0x11] + bad + [FrameFormat.magic, 1, 0x01, 0x04] + good
        #expect(decode(stream) == [
            .rejected(.garbage, type: 0, detail: 2),
            .rejected(.badCRC, type: 2, detail: UInt16(bad[bad.count - 2]) | UInt16(bad[bad.count - 1]) << 8),
            .rejected(.tooLong, type: 1, detail: 0x0401),
            .frame(type: 4, payload: []),
        ])
    }

    @Test func randomOctetsNeverYieldAnOversizedFrame() {
        var x: UInt32 = 0x1234_5678
        var decoder = FrameDecoder()
        for _ in 0..<200_000 {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5
            let byte = x & 7 == 0 ? FrameFormat.magic : UInt8(truncatingIfNeeded: x >> 8)
            if case .frame(_, let payload) = decoder.push(byte) { #expect(payload.count <= FrameFormat.maxPayload) }
        }
    }
}
