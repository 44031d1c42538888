import WireFormat

/// Tone_Quality_Indicator: one octet per tone in mode-2/3 step data, quality in the low nibble
/// and the extension-slot indicator in the high nibble (Core 6.0 Vol 4 Part E §7.7.65.44;
/// Zephyr `bt_hci_le_cs_step_data_tone_info`, BlueZ monitor).
public struct ToneQualityIndicator: Sendable, Equatable, Hashable {
    public var quality: ToneQuality
    public var extensionSlot: ToneExtensionSlot

    public init(quality: ToneQuality = .high, extensionSlot: ToneExtensionSlot = .notExtensionSlot) {
        (self.quality, self.extensionSlot) = (quality, extensionSlot)
    }

    /// Parses the octet; a nibble outside its enumeration is `.invalidValue`.
    public init(octet: UInt8) throws(DecodeError) {
        guard let q = ToneQuality(rawValue: octet & 0x0F), let e = ToneExtensionSlot(rawValue: octet >> 4) else {
            throw .invalidValue(field: "Tone_Quality_Indicator", value: Int(octet))
        }
        self.init(quality: q, extensionSlot: e)
    }

    public var octet: UInt8 { quality.rawValue | extensionSlot.rawValue << 4 }
}
