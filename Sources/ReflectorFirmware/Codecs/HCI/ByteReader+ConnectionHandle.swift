import WireFormat

/// Reading and writing Connection_Handle fields: 12 bits in a 16-bit little-endian field, upper
/// four bits zero in commands and LE Meta events (Core 6.0 Vol 4 Part E §7.8, "Range: 0x0000 to
/// 0x0EFF"; CS Test results use 0x0FFF). Values above 0x0FFF are rejected with `.invalidValue`.
extension ByteReader {
    public mutating func connectionHandle() throws(DecodeError) -> UInt16 {
        let h = try u16("Connection_Handle")
        guard h <= 0x0FFF else { throw .invalidValue(field: "Connection_Handle", value: Int(h)) }
        return h
    }
}
