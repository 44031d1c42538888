/// Reads little-endian fields from a byte buffer, as HCI, LL and RAS lay them out
/// (Core 6.0 Vol 4 Part E §5.2: multi-octet HCI fields are little-endian).
///
/// Every read checks the remaining length first and throws `DecodeError.truncated`
/// naming the field, so a decoder built on it cannot trap on short or garbage input.
public struct ByteReader {
    public let bytes: ArraySlice<UInt8>
    public private(set) var offset: Int

    public init(_ bytes: some Collection<UInt8>) {
        self.bytes = ArraySlice(bytes)
        offset = self.bytes.startIndex
    }

    public var remaining: Int { bytes.endIndex - offset }
    public var isAtEnd: Bool { offset >= bytes.endIndex }

    @inline(__always)
    mutating func need(_ n: Int, _ field: StaticString) throws(DecodeError) {
        if remaining < n { throw .truncated(field: field, needed: n - remaining) }
    }

    public mutating func u8(_ field: StaticString) throws(DecodeError) -> UInt8 {
        try need(1, field)
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func i8(_ field: StaticString) throws(DecodeError) -> Int8 {
        Int8(bitPattern: try u8(field))
    }

    public mutating func u16(_ field: StaticString) throws(DecodeError) -> UInt16 {
        UInt16(truncatingIfNeeded: try uint(2, field))
    }

    public mutating func i16(_ field: StaticString) throws(DecodeError) -> Int16 {
        Int16(bitPattern: try u16(field))
    }

    public mutating func u24(_ field: StaticString) throws(DecodeError) -> UInt32 {
        UInt32(truncatingIfNeeded: try uint(3, field))
    }

    public mutating func u32(_ field: StaticString) throws(DecodeError) -> UInt32 {
        UInt32(truncatingIfNeeded: try uint(4, field))
    }

    /// An unsigned little-endian integer of `width` octets (1...8).
    public mutating func uint(_ width: Int, _ field: StaticString) throws(DecodeError) -> UInt64 {
        try need(width, field)
        var v: UInt64 = 0
        for i in 0..<width { v |= UInt64(bytes[offset + i]) << UInt64(8 * i) }
        offset += width
        return v
    }

    /// `count` octets as they stand on the wire.
    public mutating func octets(_ count: Int, _ field: StaticString) throws(DecodeError) -> ArraySlice<UInt8> {
        try need(count, field)
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// Throws `trailingBytes` unless every octet was consumed: fixed layouts must match exactly.
    public func expectEnd() throws(DecodeError) {
        if remaining > 0 { throw .trailingBytes(extra: remaining) }
    }
}
