import WireFormat

/// The HCI fields the CS commands and events share (Core 6.0 Vol 4 Part E §5.4, §7.8).
extension FieldCoder {
    /// A Status octet, or an error code under another name (Reason).
    @inlinable
    public mutating func status(_ v: inout HCIStatus, _ field: StaticString = "Status") throws(Failure) { try value(&v, field) }

    /// Connection_Handle: 12 bits in 16, above 0x0FFF `.invalidValue`.
    @inlinable
    public mutating func connectionHandle(_ v: inout UInt16) throws(Failure) {
        try u16(&v, "Connection_Handle")
        try require(v <= 0x0FFF, "Connection_Handle", Int(v))
    }

    /// Config_ID of the HCI CS commands and events: 0...3.
    @inlinable
    public mutating func configID(_ v: inout UInt8) throws(Failure) { try u8(&v, "Config_ID", in: CSConfiguration.configIDRange) }
}
