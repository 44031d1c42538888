import WireFormat

/// LL_CS_RSP (opcode 0x33, 21 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.48, best
/// knowledge): the peripheral's answer to LL_CS_REQ in the Channel Sounding Start procedure,
/// narrowing the proposed offset window and scheduling to what it can serve. The central then
/// fixes the values with LL_CS_IND.
///
/// Layout (NimBLE PR #1765 `ble_ll_cs_start_rsp_make` / `ble_ll_cs_rx_cs_start_rsp`; Telink
/// `rf_packet_ll_cs_rsp_t` and Zephyr's controller agree), little-endian:
///
/// ```
///  0 Config_ID (b0-5; b6-7 RFU)  1-2 connEventCount  3-5 Offset_Min (µs)  6-8 Offset_Max (µs)
///  9-10 Event_Interval  11 Subevents_Per_Event  12-13 Subevent_Interval  14-16 Subevent_Len (µs)
/// 17 ACI  18 PHY (b0-3)  19 Pwr_Delta (int8)  20 RFU
/// ```
///
/// Octets 9-20 are the `LLCSSchedule` that LL_CS_IND repeats.
///
/// One third-party header also puts Procedure_Interval, Procedure_Count, Preferred_Peer_Antenna
/// and TX_SNR here; that cannot fit 21 octets and matches no controller, so it is not followed.
public struct LLCSRsp: LLControlFieldWalk {
    public static let opcode = LLControlOpcode.csRsp

    public var configID: UInt8
    public var connEventCount: UInt16
    /// Offset_Min and Offset_Max in µs (24-bit).
    public var offsetMin: UInt32
    public var offsetMax: UInt32
    /// Event_Interval to RFU (octets 9-20), as LL_CS_IND carries them too.
    public var schedule: LLCSSchedule

    public init(configID: UInt8, connEventCount: UInt16, offsetMin: UInt32, offsetMax: UInt32, schedule: LLCSSchedule) {
        (self.configID, self.connEventCount, self.offsetMin, self.offsetMax, self.schedule) = (configID, connEventCount, offsetMin, offsetMax, schedule)
    }

    public static var blank: Self { Self(configID: 0, connEventCount: 0, offsetMin: 0, offsetMax: 0, schedule: .blank) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.llConfigID(&configID)
        try c.u16(&connEventCount, "connEventCount")
        try c.u24(&offsetMin, "Offset_Min")
        try c.u24(&offsetMax, "Offset_Max")
        try schedule.fields(&c)
    }

}
