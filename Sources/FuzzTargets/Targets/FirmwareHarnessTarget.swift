import FirmwareHarness
import ToolJSON

/// The firmware test image's input side (`HarnessSession`: the frame decoder, then the
/// Configuration, Security and Receptions decoders and a Run), fed any octets a serial console
/// may carry.
///
/// Checks: what the session sends back is a clean stream of frames (every frame decodes with a
/// good CRC, none is rejected), whatever came in.
enum FirmwareHarnessTarget {
    static let target = FuzzTarget("firmware-harness", "HarnessSession: any octets on the test image's console", seeds: seeds) { bytes in
        var session = HarnessSession()
        var sink = ByteSink()
        var meter = NoMeter()
        for b in bytes where !session.isDone { session.receive(b, sink: &sink, meter: &meter) }
        var decoder = FrameDecoder()
        for b in sink.bytes {
            if case .rejected(let error, _, _) = decoder.push(b) {
                require(false, "the session sent a malformed frame (\(error)) for \(hex(bytes))")
            }
        }
    }

    /// A whole vector, its frames one by one, and the framing broken in each way.
    static func seeds() -> [[UInt8]] {
        func frame(_ type: UInt8, _ payload: [UInt8]) -> [UInt8] {
            var sink = ByteSink()
            FrameFormat.write(type: type, payload: payload, to: &sink)
            return sink.bytes
        }
        let security = frame(FrameType.security.rawValue, [UInt8](repeating: 0x5A, count: SecurityMaterial.encodedLength))
        let receptions = frame(FrameType.receptions.rawValue, [1, 0, 0, 0x80, 0x44, 0, 0, 0, 0x44, 20, 1, 1, 0, 0xC0, 0, 0, 0, 0])
        var configuration: [UInt8] = [2, 0xFF, 2, 4, 0, 2, 0, 1, 0xFC, 0xFF, 0x7F, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F,
                                      1, 0, 0, 0, 1, 80, 0, 80, 0, 100, 0, 40, 0, 0, 0, 0]
        configuration += [0x10, 0x27, 0, 0, 0xD4, 0x30, 0, 0, 0x50, 0xC3, 0, 0, 1]
        let config = frame(FrameType.configuration.rawValue, configuration)
        let run = frame(FrameType.run.rawValue, [])
        var badCRC = security
        badCRC[badCRC.count - 1] ^= 1
        return [config + security + receptions + run, config, security, receptions, run, badCRC,
                [FrameFormat.magic, 1, 0xFF, 0xFF], [0, 1, 2, 3] + run]
    }
}
