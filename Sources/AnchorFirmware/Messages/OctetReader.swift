/// Reads little-endian fields of a received frame up to a limit (the end of the IE being
/// parsed), throwing `DTFrameError.truncated` with the field and offset instead of trapping.
struct OctetReader {
    let octets: [UInt8]
    var offset: Int
    var limit: Int

    init(_ octets: [UInt8], limit: Int) {
        self.octets = octets
        offset = 0
        self.limit = limit
    }

    var remaining: Int { limit - offset }

    mutating func uint(_ width: Int, _ field: DTField) throws(DTFrameError) -> UInt64 {
        if remaining < width { throw .truncated(field: field, offset: offset) }
        var v: UInt64 = 0
        for i in 0..<width { v |= UInt64(octets[offset + i]) << UInt64(8 * i) }
        offset += width
        return v
    }

    mutating func u8(_ field: DTField) throws(DTFrameError) -> UInt8 { UInt8(try uint(1, field)) }
    mutating func u16(_ field: DTField) throws(DTFrameError) -> UInt16 { UInt16(try uint(2, field)) }
    mutating func u32(_ field: DTField) throws(DTFrameError) -> UInt32 { UInt32(try uint(4, field)) }

    mutating func skip(_ count: Int, _ field: DTField) throws(DTFrameError) {
        if remaining < count { throw .truncated(field: field, offset: offset) }
        offset += count
    }
}

extension Array where Element == UInt8 {
    /// Appends the low `width` octets of `value`, least significant first.
    mutating func appendLittleEndian(_ value: UInt64, width: Int) {
        for i in 0..<width { append(UInt8(truncatingIfNeeded: value >> UInt64(8 * i))) }
    }
}
