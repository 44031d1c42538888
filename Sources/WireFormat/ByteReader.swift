/// Reads integer and octet fields from a byte buffer, one after the other, in either byte order
/// (`Endianness`; little-endian unless asked, as HCI, LL and RAS lay them out: Core 6.0 Vol 4
/// Part E §5.2). The one way this project turns received octets into fields, in the firmware
/// and on the host alike.
///
/// Every read checks the remaining length first and throws `DecodeError.truncated` naming the
/// field, so a decoder built on it cannot trap on short or garbage input. Reading allocates
/// nothing: the reader keeps a slice of the caller's buffer, and `octets` returns sub-slices.
///
/// `offset` counts the octets consumed from the start of the slice the reader was made with.
public struct ByteReader {
    /// The octets being read (a slice: its indices are the caller's).
    public let bytes: ArraySlice<UInt8>
    /// The index in `bytes` of the next octet.
    @usableFromInline var index: Int

    /// A reader over `bytes`, sharing its storage.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    /// A reader over `bytes`, sharing its storage.
    @inlinable
    public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// A reader over a copy of `bytes`.
    @inlinable
    public init(_ bytes: some Collection<UInt8>) { self.init(ArraySlice(bytes)) }

    /// Octets read so far.
    @inlinable public var offset: Int { index - bytes.startIndex }
    /// Octets left to read.
    @inlinable public var remaining: Int { bytes.endIndex - index }
    @inlinable public var isAtEnd: Bool { index >= bytes.endIndex }
    /// The octets not read yet, without consuming them.
    @inlinable public var unread: ArraySlice<UInt8> { bytes[index...] }

    @inlinable @inline(__always)
    mutating func need(_ n: Int, _ field: StaticString) throws(DecodeError) {
        if remaining < n { throw .truncated(field: field, needed: n - remaining) }
    }

    // MARK: Integers

    /// An integer of `T`'s full width (NIO's `readInteger(endianness:as:)`).
    @inlinable
    public mutating func readInteger<T: FixedWidthInteger>(
        _ field: StaticString, endianness: Endianness = .little, as type: T.Type = T.self
    ) throws(DecodeError) -> T {
        try readInteger(field, width: MemoryLayout<T>.size, endianness: endianness, as: type)
    }

    /// An integer stored in `width` octets (1 up to `T`'s size), such as a 24-bit offset or a
    /// 40-bit timestamp; the octets fill the low end of `T`.
    @inlinable
    public mutating func readInteger<T: FixedWidthInteger>(
        _ field: StaticString, width: Int, endianness: Endianness = .little, as type: T.Type = T.self
    ) throws(DecodeError) -> T {
        try need(width, field)
        var v: T = 0
        switch endianness {
        case .little:
            for i in 0..<width { v |= T(truncatingIfNeeded: bytes[index &+ i]) &<< (8 &* i) }
        case .big:
            for i in 0..<width { v = v &<< 8 | T(truncatingIfNeeded: bytes[index &+ i]) }
        }
        index &+= width
        return v
    }

    @inlinable
    public mutating func u8(_ field: StaticString) throws(DecodeError) -> UInt8 {
        try need(1, field)
        defer { index &+= 1 }
        return bytes[index]
    }

    @inlinable public mutating func i8(_ field: StaticString) throws(DecodeError) -> Int8 { Int8(bitPattern: try u8(field)) }
    @inlinable public mutating func u16(_ field: StaticString, endianness: Endianness = .little) throws(DecodeError) -> UInt16 { try readInteger(field, endianness: endianness) }
    @inlinable public mutating func i16(_ field: StaticString, endianness: Endianness = .little) throws(DecodeError) -> Int16 { try readInteger(field, endianness: endianness) }
    /// A 24-bit field.
    @inlinable public mutating func u24(_ field: StaticString, endianness: Endianness = .little) throws(DecodeError) -> UInt32 { try readInteger(field, width: 3, endianness: endianness) }
    @inlinable public mutating func u32(_ field: StaticString, endianness: Endianness = .little) throws(DecodeError) -> UInt32 { try readInteger(field, endianness: endianness) }
    @inlinable public mutating func u64(_ field: StaticString, endianness: Endianness = .little) throws(DecodeError) -> UInt64 { try readInteger(field, endianness: endianness) }

    /// An unsigned integer of `width` octets (0...8).
    @inlinable
    public mutating func uint(_ width: Int, _ field: StaticString, endianness: Endianness = .little) throws(DecodeError) -> UInt64 {
        try readInteger(field, width: width, endianness: endianness)
    }

    // MARK: Octets

    /// `count` octets as they stand on the wire (a slice of `bytes`, nothing copied).
    @inlinable
    public mutating func octets(_ count: Int, _ field: StaticString) throws(DecodeError) -> ArraySlice<UInt8> {
        try need(count, field)
        defer { index &+= count }
        return bytes[index..<(index &+ count)]
    }

    /// Passes over `count` octets.
    @inlinable
    public mutating func skip(_ count: Int, _ field: StaticString) throws(DecodeError) {
        try need(count, field)
        index &+= count
    }

    /// Throws `trailingBytes` unless every octet was consumed: fixed layouts must match exactly.
    @inlinable
    public func expectEnd() throws(DecodeError) {
        if remaining > 0 { throw .trailingBytes(extra: remaining) }
    }

    /// What `body` reads from `bytes`, which must be all of them (`trailingBytes` otherwise): the
    /// frame of every decoder of a whole PDU or parameter block.
    @inlinable
    public static func whole<T>(_ bytes: some Collection<UInt8>, _ body: (inout ByteReader) throws(DecodeError) -> T) throws(DecodeError) -> T {
        var r = ByteReader(bytes)
        let value = try body(&r)
        try r.expectEnd()
        return value
    }
}
