/// CRC-16/XMODEM (polynomial 0x1021, initial value 0, no reflection), the checksum MCUboot's
/// serial recovery appends to every SMP packet before base64 encoding (mcumgr's console framing).
public enum CRC16 {
    public static func xmodem(_ bytes: some Sequence<UInt8>, initial: UInt16 = 0) -> UInt16 {
        var crc = initial
        for b in bytes {
            crc ^= UInt16(b) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return crc
    }
}
