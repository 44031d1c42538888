import WireFormat

/// Field readers shared by the CS LL Control PDUs (Core 6.0 Vol 6 Part B §2.4.2.42–§2.4.2.53).
extension ByteReader {
    /// The octet that opens most CS PDUs: Config_ID in bits 0...5 (0...3 allowed), bits 6...7
    /// returned separately (RFU in most PDUs, Action in LL_CS_CONFIG_REQ).
    mutating func llConfigIDOctet() throws(DecodeError) -> (configID: UInt8, upper: UInt8) {
        let v = try u8("Config_ID")
        let id = v & 0x3F
        guard id <= 3 else { throw .invalidValue(field: "Config_ID", value: Int(id)) }
        return (id, v >> 6)
    }
}
