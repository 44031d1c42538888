import WireFormat

/// The Ranging Header that opens the RAS ranging data of one CS procedure (RAS 1.0 §3.2.1.2;
/// nRF `ras.h` `ras_ranging_header`), 4 octets:
/// `[Ranging_Counter:12 (bits 0–11) | Configuration_ID:4 (bits 12–15)] LE16 |
/// Selected_TX_Power int8 dBm | Antenna_Paths_Mask 1 (bit k = antenna path k+1 present)`.
public struct RangingHeader: Sendable, Equatable {
    public static let encodedLength = 4

    /// The low 12 bits of Procedure_Counter.
    public var rangingCounter: UInt16
    /// Config_ID, 0...3.
    public var configID: UInt8
    /// Selected_TX_Power from LE CS Procedure Enable Complete.
    public var selectedTxPower: Int8
    /// Bits 0–3: antenna paths reported.
    public var antennaPathsMask: UInt8

    /// `rangingCounter` is reduced to 12 bits.
    public init(rangingCounter: UInt16, configID: UInt8, selectedTxPower: Int8, antennaPathsMask: UInt8) {
        self.rangingCounter = rangingCounter & 0x0FFF
        self.configID = configID
        self.selectedTxPower = selectedTxPower
        self.antennaPathsMask = antennaPathsMask
    }

    /// The mask for N_AP antenna paths, `(1 << N_AP) − 1`.
    public static func mask(antennaPaths: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (1 << Swift.min(Swift.max(antennaPaths, 0), 4)) - 1)
    }

    /// The number of antenna paths the mask names.
    public var antennaPaths: Int { (antennaPathsMask & 0x0F).nonzeroBitCount }

    public func encode(into w: inout ByteWriter) {
        w.u16((rangingCounter & 0x0FFF) | UInt16(configID & 0x0F) << 12)
        w.i8(selectedTxPower)
        w.u8(antennaPathsMask)
    }

    public static func decode(from r: inout ByteReader) throws(DecodeError) -> RangingHeader {
        let v = try r.u16("Ranging_Counter")
        let id = UInt8(v >> 12)
        guard id <= 3 else { throw .invalidValue(field: "Configuration_ID", value: Int(id)) }
        let power = try r.i8("Selected_TX_Power")
        let mask = try r.u8("Antenna_Paths_Mask")
        guard mask <= 0x0F else { throw .invalidValue(field: "Antenna_Paths_Mask", value: Int(mask)) }
        return RangingHeader(rangingCounter: v & 0x0FFF, configID: id, selectedTxPower: power, antennaPathsMask: mask)
    }
}
