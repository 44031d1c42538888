import WireFormat

/// The fields the CS LL Control PDUs share (Core 6.0 Vol 6 Part B §2.4.2.42–§2.4.2.53).
extension FieldCoder {
    /// The octet that opens most CS PDUs: Config_ID in bits 0...5 (0...3 allowed), bits 6...7
    /// RFU (written 0, ignored when read).
    @inlinable
    public mutating func llConfigID(_ v: inout UInt8) throws(Failure) {
        try masked(&v, 0x3F, "Config_ID")
        try require(v <= 3, "Config_ID", Int(v))
    }

    /// The bits of an octet under `mask` (the rest RFU: written 0, ignored when read).
    @inlinable
    public mutating func masked(_ v: inout UInt8, _ mask: UInt8, _ field: StaticString) throws(Failure) {
        var octet = v & mask
        try u8(&octet, field)
        v = octet & mask
    }

    /// An RFU octet: written 0, ignored when read.
    @inlinable
    public mutating func reserved(_ field: StaticString = "RFU") throws(Failure) {
        var octet: UInt8 = 0
        try u8(&octet, field)
    }

    /// ACI (Tone_Antenna_Config_Selection), 0...7.
    @inlinable
    public mutating func llACI(_ v: inout UInt8) throws(Failure) { try u8(&v, "ACI", in: 0...7) }

    /// PHY of CS_REQ/RSP/IND in bits 0...3: 1 = LE 1M and 2 = LE 2M in every source; NimBLE and
    /// Zephyr copy the HCI value (3 = Coded S8, 4 = Coded S2) while a bitmask reading would use
    /// 4 = Coded, so 1...4 are accepted and the value is kept as it stands [U].
    @inlinable
    public mutating func llPHY(_ v: inout UInt8) throws(Failure) {
        try masked(&v, 0x0F, "PHY")
        try require((1...4).contains(v), "PHY", Int(v))
    }
}
