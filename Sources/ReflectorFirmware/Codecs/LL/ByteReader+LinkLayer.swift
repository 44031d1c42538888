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

    /// An Error_Code octet: one of the Core error codes (Vol 1 Part F), else `invalidValue`.
    mutating func llErrorCode() throws(DecodeError) -> HCIStatus {
        try status("Error_Code")
    }
}

/// Range checks for the CS scheduling fields that are enumerations.
enum LLFieldCheck {
    /// ACI (Tone_Antenna_Config_Selection), 0...7.
    static func aci(_ v: UInt8) throws(DecodeError) -> UInt8 {
        guard v <= 7 else { throw .invalidValue(field: "ACI", value: Int(v)) }
        return v
    }

    /// PHY of CS_REQ/RSP/IND. 1 = LE 1M and 2 = LE 2M in every source; NimBLE and Zephyr copy
    /// the HCI value (3 = Coded S8, 4 = Coded S2) while a bitmask reading would use 4 = Coded,
    /// so 1...4 are accepted and the value is kept as it stands [U].
    static func phy(_ v: UInt8) throws(DecodeError) -> UInt8 {
        guard (1...4).contains(v) else { throw .invalidValue(field: "PHY", value: Int(v)) }
        return v
    }

    /// A TX_SNR nibble: 0...4 (18, 21, 24, 27, 30 dB) or 0xF (not applied).
    static func txSNR(_ v: UInt8, _ field: StaticString) throws(DecodeError) -> UInt8 {
        guard v <= 4 || v == 0x0F else { throw .invalidValue(field: field, value: Int(v)) }
        return v
    }
}
