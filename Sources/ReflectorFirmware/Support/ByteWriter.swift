/// Appends little-endian fields to a byte buffer: the encoding side of `ByteReader`.
public struct ByteWriter {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 32) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func i8(_ v: Int8) { bytes.append(UInt8(bitPattern: v)) }
    public mutating func u16(_ v: UInt16) { uint(UInt64(v), 2) }
    public mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }
    public mutating func u24(_ v: UInt32) { uint(UInt64(v), 3) }
    public mutating func u32(_ v: UInt32) { uint(UInt64(v), 4) }

    /// The low `width` octets of `v`, least significant first.
    public mutating func uint(_ v: UInt64, _ width: Int) {
        for i in 0..<width { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(8 * i))) }
    }

    public mutating func octets(_ v: some Sequence<UInt8>) { bytes.append(contentsOf: v) }
}
