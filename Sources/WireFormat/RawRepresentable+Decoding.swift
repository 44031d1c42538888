/// An enumerated octet (or nibble) read from outside bytes: a value the enumeration does not
/// list is `.invalidValue` naming the field, never a trap. The one place the project checks a
/// received code against its enumeration (HCI statuses, LL and SMP opcodes, done statuses,
/// step modes, RAS response codes, roles and address types).
extension RawRepresentable where RawValue == UInt8 {
    /// `raw` as this enumeration, or `.invalidValue(field:value:)`.
    @inlinable
    public init(decoding raw: UInt8, _ field: StaticString) throws(DecodeError) {
        guard let v = Self(rawValue: raw) else { throw .invalidValue(field: field, value: Int(raw)) }
        self = v
    }
}

extension ByteReader {
    /// The next octet as the enumeration `E` (`.invalidValue` naming `field` for a value `E`
    /// does not list).
    @inlinable
    public mutating func value<E: RawRepresentable>(_ field: StaticString, as type: E.Type = E.self) throws(DecodeError) -> E
    where E.RawValue == UInt8 {
        try E(decoding: try u8(field), field)
    }
}
