import WireFormat

/// The subevent schedule of the CS procedures being started, as LL_CS_RSP and LL_CS_IND both
/// carry it after their offsets (Core 6.0 Vol 6 Part B §2.4.2.48/§2.4.2.49, best knowledge;
/// NimBLE PR #1765 `ble_ll_cs_start_rsp_make` / `ble_ll_cs_start_ind_make`, Telink and Zephyr's
/// controller agree). 12 octets, little-endian:
///
/// ```
///  0-1 Event_Interval  2 Subevents_Per_Event  3-4 Subevent_Interval  5-7 Subevent_Len (µs)
///  8 ACI  9 PHY (b0-3)  10 Pwr_Delta (int8)  11 RFU
/// ```
///
/// LL_CS_REQ proposes the same values but interleaves them with Max_Procedure_Len, the procedure
/// interval and count and the preferred peer antenna, so it keeps its own layout;
/// `LLCSReq.schedule` gives its proposal as this value. Decoding checks ACI ≤ 7 and PHY 1...4
/// (`LLFieldCheck`); RFU bits are ignored.
public struct LLCSSchedule: Sendable, Equatable {
    /// Event_Interval in ACL connection events.
    public var eventInterval: UInt16
    public var subeventsPerEvent: UInt8
    /// Subevent_Interval in units of 0.625 ms (0 with a single subevent per event).
    public var subeventInterval: UInt16
    /// Subevent_Len in µs (24-bit: the encoder writes the low 24 bits).
    public var subeventLength: UInt32
    /// ACI (Tone_Antenna_Config_Selection), 0...7.
    public var aci: UInt8
    public var phy: UInt8
    /// Pwr_Delta in dB; 0x80 (−128) = no recommendation.
    public var powerDelta: Int8

    public init(eventInterval: UInt16, subeventsPerEvent: UInt8, subeventInterval: UInt16, subeventLength: UInt32,
                aci: UInt8, phy: UInt8, powerDelta: Int8) {
        self.eventInterval = eventInterval
        self.subeventsPerEvent = subeventsPerEvent
        self.subeventInterval = subeventInterval
        self.subeventLength = subeventLength
        self.aci = aci
        self.phy = phy
        self.powerDelta = powerDelta
    }

    /// Octets of the encoded schedule, RFU octet included.
    public static let encodedLength = 12

    func encode(into w: inout ByteWriter) {
        w.u16(eventInterval)
        w.u8(subeventsPerEvent)
        w.u16(subeventInterval)
        w.u24(subeventLength)
        w.u8(aci)
        w.u8(phy & 0x0F)
        w.i8(powerDelta)
        w.u8(0)
    }

    static func decode(from r: inout ByteReader) throws(DecodeError) -> LLCSSchedule {
        let eventInterval = try r.u16("Event_Interval")
        let perEvent = try r.u8("Subevents_Per_Event")
        let subInterval = try r.u16("Subevent_Interval")
        let subLen = try r.u24("Subevent_Len")
        let aci = try LLFieldCheck.aci(r.u8("ACI"))
        let phy = try LLFieldCheck.phy(r.u8("PHY") & 0x0F)
        let delta = try r.i8("Pwr_Delta")
        try r.skip(1, "RFU")
        return LLCSSchedule(eventInterval: eventInterval, subeventsPerEvent: perEvent, subeventInterval: subInterval,
                            subeventLength: subLen, aci: aci, phy: phy, powerDelta: delta)
    }
}
