/// One walk over a codec's fields that serves both directions: a codec lists its fields once,
/// in wire order, in `mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure)`,
/// and `FieldWriter` writes them while `FieldReader` reads them back into the value (with the
/// checks, which only a reader makes, naming the field). Each field passes `inout`: the writer
/// reads it, the reader sets it.
///
/// Generics only, no existentials and no key paths: every codec gets a copy specialised for
/// each coder, so the writer's walk is the sequence of appends a hand-written
/// `encodeParameters` was (it cannot fail: `FieldWriter.Failure` is `Never`, so writing needs
/// no `try`), and the reader's the sequence of reads; this builds and costs the same under
/// Embedded Swift.
public protocol FieldCoder {
    associatedtype Failure: Error
    /// An integer field of `width` octets (the low octets of `T`).
    mutating func integer<T: FixedWidthInteger>(_ value: inout T, _ field: StaticString, width: Int, endianness: Endianness) throws(Failure)
    /// When reading, `.invalidValue(field:value:)` unless `valid`; writing checks nothing.
    mutating func require(_ valid: @autoclosure () -> Bool, _ field: StaticString, _ value: @autoclosure () -> Int) throws(Failure)
}

extension FieldCoder {
    @inlinable
    public mutating func u8(_ v: inout UInt8, _ field: StaticString) throws(Failure) { try integer(&v, field, width: 1, endianness: .little) }

    @inlinable
    public mutating func i8(_ v: inout Int8, _ field: StaticString) throws(Failure) { try integer(&v, field, width: 1, endianness: .little) }

    @inlinable
    public mutating func u16(_ v: inout UInt16, _ field: StaticString, endianness: Endianness = .little) throws(Failure) {
        try integer(&v, field, width: 2, endianness: endianness)
    }

    /// 24 bits (the high octet of the `UInt32` is not sent).
    @inlinable
    public mutating func u24(_ v: inout UInt32, _ field: StaticString) throws(Failure) { try integer(&v, field, width: 3, endianness: .little) }

    /// One octet that must lie in `range`.
    @inlinable
    public mutating func u8(_ v: inout UInt8, _ field: StaticString, in range: ClosedRange<UInt8>) throws(Failure) {
        try u8(&v, field)
        try require(range.contains(v), field, Int(v))
    }

    /// A 0x00/0x01 octet.
    @inlinable
    public mutating func flag(_ v: inout Bool, _ field: StaticString) throws(Failure) {
        var octet: UInt8 = v ? 1 : 0
        try u8(&octet, field, in: 0...1)
        v = octet == 1
    }

    /// An enumerated octet (`.invalidValue` for one `E` does not list).
    @inlinable
    public mutating func value<E: RawRepresentable>(_ v: inout E, _ field: StaticString) throws(Failure) where E.RawValue == UInt8 {
        var octet = v.rawValue
        try u8(&octet, field)
        guard let e = E(rawValue: octet) else { return try require(false, field, Int(octet)) }
        v = e
    }
}

/// Writes the fields a codec walks (`FieldCoder`); never fails.
public struct FieldWriter: FieldCoder {
    public typealias Failure = Never
    public var writer: ByteWriter

    @inlinable public init(_ writer: ByteWriter) { self.writer = writer }

    @inlinable
    public mutating func integer<T: FixedWidthInteger>(_ value: inout T, _ field: StaticString, width: Int, endianness: Endianness) {
        writer.writeInteger(value, width: width, endianness: endianness)
    }

    @inlinable
    public mutating func require(_ valid: @autoclosure () -> Bool, _ field: StaticString, _ value: @autoclosure () -> Int) {}
}

/// Reads the fields a codec walks (`FieldCoder`) into the value, checking each as it goes.
public struct FieldReader: FieldCoder {
    public typealias Failure = DecodeError
    public var reader: ByteReader

    @inlinable public init(_ reader: ByteReader) { self.reader = reader }

    @inlinable
    public mutating func integer<T: FixedWidthInteger>(_ value: inout T, _ field: StaticString, width: Int, endianness: Endianness) throws(DecodeError) {
        value = try reader.readInteger(field, width: width, endianness: endianness)
    }

    @inlinable
    public mutating func require(_ valid: @autoclosure () -> Bool, _ field: StaticString, _ value: @autoclosure () -> Int) throws(DecodeError) {
        if !valid() { throw .invalidValue(field: field, value: value()) }
    }
}

/// A value whose wire form is one walk over its fields (`fields(_:)`), both ways: what
/// `HCIFieldWalk` and `LLControlFieldWalk` build their codecs on.
public protocol FieldWalk {
    /// A value that decoding starts from and every field overwrites.
    static var blank: Self { get }
    /// Walks every field, in wire order (reading: checking each as the spec requires).
    mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure)
}

extension FieldWalk {
    /// Appends the fields to `w` (its storage moves into the coder and back: nothing is copied).
    @inlinable
    public func writeFields(into w: inout ByteWriter) {
        var (v, c) = (self, FieldWriter(ByteWriter(capacity: 0)))
        swap(&c.writer, &w)
        v.fields(&c)
        swap(&c.writer, &w)
    }

    /// Reads the fields from `r`, which then stands after the last.
    @inlinable
    public static func readFields(_ r: inout ByteReader) throws(DecodeError) -> Self {
        var (v, c) = (blank, FieldReader(r))
        try v.fields(&c)
        r = c.reader
        return v
    }
}
