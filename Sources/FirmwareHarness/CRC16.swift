/// CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR):
/// the check of every harness frame. Bitwise, so the image carries no table.
public struct CRC16: Sendable, Equatable {
    public private(set) var value: UInt16 = 0xFFFF

    public init() {}

    @inline(__always)
    public mutating func update(_ byte: UInt8) {
        value ^= UInt16(byte) << 8
        for _ in 0..<8 { value = value & 0x8000 != 0 ? (value << 1) ^ 0x1021 : value << 1 }
    }

    public static func of(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc = CRC16()
        for b in bytes { crc.update(b) }
        return crc.value
    }
}
