import WireFormat

/// Step data of a mode-1 (round-trip time) step, and the first part of a mode-3 step
/// (Core 6.0 Vol 4 Part E §7.7.65.44): `Packet_Quality 1 | Packet_NADM 1 | Packet_RSSI int8 |
/// ToA_ToD int16 | Packet_Antenna 1` (6 octets), then `Packet_PCT1 4 | Packet_PCT2 4` when
/// phase-based ranging from the sounding sequence is in use (14 octets).
public struct Mode1StepData: Sendable, Equatable {
    public var packetQuality: PacketQuality
    /// Packet_NADM: 0...6 attack likelihood, 0xFF unknown.
    public var packetNADM: UInt8
    /// dBm; 0x7F = not available.
    public var packetRSSI: Int8
    /// ToA_ToD_Initiator or ToD_ToA_Reflector in 0.5 ns units; 0x8000 (−32768) = not available.
    public var toaTod: Int16
    /// Antenna ID 1...4 (not range-checked).
    public var packetAntenna: UInt8
    public var sequencePCT: SequencePhaseCorrection?

    public init(packetQuality: PacketQuality = PacketQuality(), packetNADM: UInt8 = 0xFF, packetRSSI: Int8,
                toaTod: Int16, packetAntenna: UInt8 = 1, sequencePCT: SequencePhaseCorrection? = nil) {
        self.packetQuality = packetQuality
        self.packetNADM = packetNADM
        self.packetRSSI = packetRSSI
        self.toaTod = toaTod
        self.packetAntenna = packetAntenna
        self.sequencePCT = sequencePCT
    }

    public static let notAvailableToaTod = Int16.min

    public static func encodedLength(sequencePCT: Bool) -> Int { sequencePCT ? 14 : 6 }
    public var encodedLength: Int { Mode1StepData.encodedLength(sequencePCT: sequencePCT != nil) }

    func encode(into w: inout ByteWriter) {
        w.u8(packetQuality.octet)
        w.u8(packetNADM)
        w.i8(packetRSSI)
        w.i16(toaTod)
        w.u8(packetAntenna)
        sequencePCT?.encode(into: &w)
    }

    static func decode(sequencePCT: Bool, from r: inout ByteReader) throws(DecodeError) -> Mode1StepData {
        let q = try PacketQuality(octet: try r.u8("Packet_Quality"))
        let nadm = try r.u8("Packet_NADM")
        guard nadm <= 6 || nadm == 0xFF else { throw .invalidValue(field: "Packet_NADM", value: Int(nadm)) }
        let rssi = try r.i8("Packet_RSSI")
        let t = try r.i16("ToA_ToD")
        let antenna = try r.u8("Packet_Antenna")
        let pct: SequencePhaseCorrection? = sequencePCT ? try SequencePhaseCorrection.decode(from: &r) : nil
        return Mode1StepData(packetQuality: q, packetNADM: nadm, packetRSSI: rssi, toaTod: t, packetAntenna: antenna,
                             sequencePCT: pct)
    }
}
