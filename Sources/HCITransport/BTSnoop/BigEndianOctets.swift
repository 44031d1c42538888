/// Big-endian integer fields, the byte order of every btsnoop header and record field (unlike
/// HCI itself, which is little-endian).
extension Array where Element == UInt8 {
    mutating func appendBigEndian<Value: FixedWidthInteger>(_ value: Value) {
        let octets = Value.bitWidth / 8
        for k in stride(from: octets - 1, through: 0, by: -1) {
            append(UInt8(truncatingIfNeeded: value >> (k * 8)))
        }
    }

    /// Reads a `Value` at `offset`; the caller has checked that the octets are there.
    func bigEndian<Value: FixedWidthInteger>(_: Value.Type, at offset: Int) -> Value {
        var value: Value = 0
        for k in 0..<(Value.bitWidth / 8) {
            value = value << 8 | Value(truncatingIfNeeded: self[offset + k])
        }
        return value
    }
}
