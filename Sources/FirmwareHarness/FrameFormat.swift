/// The harness's framing, kept simple so a serial console can carry it and a decoder can find
/// its way back after noise: `0xA5 | type 1 | length 2 (LE) | payload | CRC-16 2 (LE)`, the
/// CRC (`CRC16`) over type, length and payload. Payloads are at most `maxPayload` octets.
public enum FrameFormat {
    public static let magic: UInt8 = 0xA5
    public static let maxPayload = 1024

    /// Writes one frame to `sink`, octet by octet (the image's UART takes one at a time).
    public static func write<Sink: FrameSink>(type: UInt8, payload: [UInt8], to sink: inout Sink) {
        var crc = CRC16()
        sink.write(magic)
        let length = UInt16(truncatingIfNeeded: payload.count)
        for b in [type, UInt8(truncatingIfNeeded: length), UInt8(truncatingIfNeeded: length >> 8)] {
            crc.update(b)
            sink.write(b)
        }
        for b in payload {
            crc.update(b)
            sink.write(b)
        }
        sink.write(UInt8(truncatingIfNeeded: crc.value))
        sink.write(UInt8(truncatingIfNeeded: crc.value >> 8))
    }
}
