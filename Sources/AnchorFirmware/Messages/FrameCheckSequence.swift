import WireFormat

/// The 2-octet FCS of IEEE 802.15.4 (2020 §7.2.11): CRC-16 ITU-T, generator x¹⁶ + x¹² + x⁵ + 1,
/// register initialised to 0, no final inversion, bits processed least significant first
/// (the reflected form 0x8408, a.k.a. CRC-16/KERMIT; check value over "123456789" = 0x2189),
/// sent least significant octet first.
public enum FrameCheckSequence {
    public static func crc16(_ octets: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for octet in octets {
            crc ^= UInt16(octet)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x8408 : crc >> 1 }
        }
        return crc
    }

    /// Appends the FCS of `frame` to it.
    public static func append(to frame: inout [UInt8]) {
        let crc = crc16(frame)
        ByteWriter.append(to: &frame) { $0.u16(crc) }
    }
}
