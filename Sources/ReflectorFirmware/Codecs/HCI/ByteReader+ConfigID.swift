import WireFormat

/// Reading a Config_ID octet of the HCI CS commands and events (Core 6.0 Vol 4 Part E §7.8.137
/// ff.): 0...3, else `.invalidValue`.
extension ByteReader {
    mutating func configID() throws(DecodeError) -> UInt8 {
        let v = try u8("Config_ID")
        guard CSConfiguration.configIDRange.contains(v) else { throw .invalidValue(field: "Config_ID", value: Int(v)) }
        return v
    }
}
