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
/// (`FieldCoder.llACI`, `llPHY`); RFU bits are ignored.
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
        (self.eventInterval, self.subeventsPerEvent, self.subeventInterval, self.subeventLength) = (eventInterval, subeventsPerEvent, subeventInterval, subeventLength)
        (self.aci, self.phy, self.powerDelta) = (aci, phy, powerDelta)
    }

    /// Octets of the encoded schedule, RFU octet included.
    public static let encodedLength = 12

    /// The schedule's fields, after those of the PDU that carries it.
    mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.u16(&eventInterval, "Event_Interval")
        try c.u8(&subeventsPerEvent, "Subevents_Per_Event"); try c.u16(&subeventInterval, "Subevent_Interval"); try c.u24(&subeventLength, "Subevent_Len")
        try c.llACI(&aci); try c.llPHY(&phy); try c.i8(&powerDelta, "Pwr_Delta")
        try c.reserved()
    }

    static let blank = LLCSSchedule(eventInterval: 0, subeventsPerEvent: 0, subeventInterval: 0, subeventLength: 0, aci: 0, phy: 1, powerDelta: 0)

}
