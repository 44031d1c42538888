import WireFormat

/// Step data of a mode-0 (calibration) step (Core 6.0 Vol 4 Part E §7.7.65.44):
/// `Packet_Quality 1 | Packet_RSSI int8 | Packet_Antenna 1` (3 octets, reflector), and for the
/// initiator also `Measured_Freq_Offset 2` (5 octets).
public struct Mode0StepData: Sendable, Equatable {
    public var packetQuality: PacketQuality
    /// dBm; 0x7F (127) = not available.
    public var packetRSSI: Int8
    /// Antenna ID 1...4 (not range-checked: some controllers report 0 on failed steps).
    public var packetAntenna: UInt8
    /// Initiator only (`nil` for the reflector layout): 15-bit signed, 0.01 ppm units, bit 15
    /// RFU, 0xC000 = not available.
    public var measuredFrequencyOffset: UInt16?

    public init(packetQuality: PacketQuality = PacketQuality(), packetRSSI: Int8, packetAntenna: UInt8 = 1,
                measuredFrequencyOffset: UInt16? = nil) {
        self.packetQuality = packetQuality
        self.packetRSSI = packetRSSI
        self.packetAntenna = packetAntenna
        self.measuredFrequencyOffset = measuredFrequencyOffset
    }

    public static let notAvailableFrequencyOffset: UInt16 = 0xC000

    /// The measured offset in 0.01 ppm, sign-extended from 15 bits; `nil` if absent or not available.
    public var frequencyOffsetHundredthsPPM: Int16? {
        guard let raw = measuredFrequencyOffset, raw != Mode0StepData.notAvailableFrequencyOffset else { return nil }
        return Int16(bitPattern: raw << 1) >> 1
    }

    public static func encodedLength(role: CSRole) -> Int { role == .initiator ? 5 : 3 }
    public var encodedLength: Int { measuredFrequencyOffset == nil ? 3 : 5 }

    func encode(into w: inout ByteWriter) {
        w.u8(packetQuality.octet)
        w.i8(packetRSSI)
        w.u8(packetAntenna)
        if let f = measuredFrequencyOffset { w.u16(f) }
    }

    static func decode(role: CSRole, from r: inout ByteReader) throws(DecodeError) -> Mode0StepData {
        let q = try PacketQuality(octet: try r.u8("Packet_Quality"))
        let rssi = try r.i8("Packet_RSSI")
        let antenna = try r.u8("Packet_Antenna")
        let offset: UInt16? = role == .initiator ? try r.u16("Measured_Freq_Offset") : nil
        return Mode0StepData(packetQuality: q, packetRSSI: rssi, packetAntenna: antenna, measuredFrequencyOffset: offset)
    }
}
