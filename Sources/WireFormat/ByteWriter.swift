/// Appends integer and octet fields to a byte buffer in either byte order (`Endianness`;
/// little-endian unless asked): the encoding side of `ByteReader`.
public struct ByteWriter {
    /// The octets written so far.
    @inlinable public var bytes: [UInt8] { storage }
    @usableFromInline var storage: [UInt8]

    /// An empty writer with room for `capacity` octets.
    @inlinable
    public init(capacity: Int = 32) {
        storage = []
        storage.reserveCapacity(capacity)
    }

    /// Lets `body` append to `buffer` in place. The writer takes the buffer's storage while
    /// `body` runs, so appending never copies what the buffer already holds.
    @inlinable
    public static func append(to buffer: inout [UInt8], _ body: (inout ByteWriter) -> Void) {
        var w = ByteWriter(capacity: 0)
        w.exchangeBytes(with: &buffer)
        body(&w)
        w.exchangeBytes(with: &buffer)
    }

    @usableFromInline
    mutating func exchangeBytes(with buffer: inout [UInt8]) { swap(&storage, &buffer) }

    // MARK: Integers

    /// `value` in `T`'s full width (NIO's `writeInteger(_:endianness:)`).
    @inlinable
    public mutating func writeInteger<T: FixedWidthInteger>(_ value: T, endianness: Endianness = .little) {
        writeInteger(value, width: MemoryLayout<T>.size, endianness: endianness)
    }

    /// The low `width` octets of `value` (a 24-bit field, a 40-bit timestamp).
    @inlinable
    public mutating func writeInteger<T: FixedWidthInteger>(_ value: T, width: Int, endianness: Endianness = .little) {
        switch endianness {
        case .little:
            for i in 0..<width { storage.append(UInt8(truncatingIfNeeded: value &>> (8 &* i))) }
        case .big:
            for i in stride(from: width - 1, through: 0, by: -1) { storage.append(UInt8(truncatingIfNeeded: value &>> (8 &* i))) }
        }
    }

    @inlinable public mutating func u8(_ v: UInt8) { storage.append(v) }
    @inlinable public mutating func i8(_ v: Int8) { storage.append(UInt8(bitPattern: v)) }
    @inlinable public mutating func u16(_ v: UInt16, endianness: Endianness = .little) { writeInteger(v, endianness: endianness) }
    @inlinable public mutating func i16(_ v: Int16, endianness: Endianness = .little) { writeInteger(v, endianness: endianness) }
    /// The low 24 bits of `v`.
    @inlinable public mutating func u24(_ v: UInt32, endianness: Endianness = .little) { writeInteger(v, width: 3, endianness: endianness) }
    @inlinable public mutating func u32(_ v: UInt32, endianness: Endianness = .little) { writeInteger(v, endianness: endianness) }
    @inlinable public mutating func u64(_ v: UInt64, endianness: Endianness = .little) { writeInteger(v, endianness: endianness) }

    /// The low `width` octets of `v` (0...8).
    @inlinable
    public mutating func uint(_ v: UInt64, _ width: Int, endianness: Endianness = .little) {
        writeInteger(v, width: width, endianness: endianness)
    }

    /// Overwrites the octets at `index...` (already written) with `value`: for a length or
    /// descriptor field whose value is known only once what follows it is written.
    @inlinable
    public mutating func setInteger<T: FixedWidthInteger>(_ value: T, at index: Int, endianness: Endianness = .little) {
        let width = MemoryLayout<T>.size
        precondition(index >= 0 && index + width <= storage.count, "setInteger outside the written octets")
        for i in 0..<width {
            let shift = endianness == .little ? 8 &* i : 8 &* (width - 1 - i)
            storage[index &+ i] = UInt8(truncatingIfNeeded: value &>> shift)
        }
    }

    /// Octets written so far.
    @inlinable public var count: Int { storage.count }

    // MARK: Octets

    @inlinable
    public mutating func octets(_ v: some Sequence<UInt8>) { storage.append(contentsOf: v) }
}
