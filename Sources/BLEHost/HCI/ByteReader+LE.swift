import ReflectorFirmware

/// The field readers the general LE codecs share (Core 6.0 Vol 4 Part E §7.8): 48-bit device
/// addresses, octets that must lie in a range, and 0/1 flags. Out-of-range values throw
/// `.invalidValue` naming the field; nothing traps.
extension ByteReader {
    /// A BD_ADDR (6 octets, little-endian) as the low 48 bits of a `UInt64`.
    mutating func address(_ field: StaticString) throws(DecodeError) -> UInt64 { try uint(6, field) }

    /// One octet that must lie in `range`.
    mutating func u8(_ field: StaticString, in range: ClosedRange<UInt8>) throws(DecodeError) -> UInt8 {
        let v = try u8(field)
        guard range.contains(v) else { throw .invalidValue(field: field, value: Int(v)) }
        return v
    }

    /// A 0x00/0x01 octet (disable/enable, false/true).
    mutating func flag(_ field: StaticString) throws(DecodeError) -> Bool { try u8(field, in: 0...1) == 1 }

    /// A length octet (at most `maximum`) and that many octets.
    mutating func lengthPrefixed(_ lengthField: StaticString, _ field: StaticString, maximum: Int) throws(DecodeError) -> [UInt8] {
        let n = try u8(lengthField)
        guard Int(n) <= maximum else { throw .invalidValue(field: lengthField, value: Int(n)) }
        return Array(try octets(Int(n), field))
    }

    /// A 16-octet key (LTK), most significant octet last as on the wire.
    mutating func key(_ field: StaticString) throws(DecodeError) -> [UInt8] { Array(try octets(16, field)) }
}

extension ByteWriter {
    /// A BD_ADDR: the low 48 bits of `address`, little-endian.
    mutating func address(_ address: UInt64) { uint(address & 0xFFFF_FFFF_FFFF, 6) }
    mutating func flag(_ on: Bool) { u8(on ? 1 : 0) }
    /// `key` as exactly 16 octets (shorter is zero-padded, longer cut: the initialisers take care).
    mutating func key(_ key: [UInt8]) {
        octets(key.prefix(16))
        if key.count < 16 { octets([UInt8](repeating: 0, count: 16 - key.count)) }
    }
}
