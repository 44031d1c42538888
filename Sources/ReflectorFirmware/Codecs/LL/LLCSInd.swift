import WireFormat

/// LL_CS_IND (opcode 0x34, 18 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.49, best
/// knowledge): sent by the central to end the Channel Sounding Start procedure with the final
/// schedule: the first CS procedure starts Offset µs after the anchor of ACL event
/// connEventCount. Both sides then report LE CS Procedure Enable Complete.
///
/// Layout (NimBLE PR #1765 `ble_ll_cs_start_ind_make` / `ble_ll_cs_rx_cs_start_ind`; Telink
/// `rf_packet_ll_cs_ind_t` and Zephyr's controller agree), little-endian:
///
/// ```
///  0 Config_ID (b0-5; b6-7 RFU)  1-2 connEventCount  3-5 Offset (µs)  6-7 Event_Interval
///  8 Subevents_Per_Event  9-10 Subevent_Interval  11-13 Subevent_Len (µs)
/// 14 ACI  15 PHY (b0-3)  16 Pwr_Delta (int8)  17 RFU
/// ```
///
/// Octets 6-17 are the `LLCSSchedule` of the LL_CS_RSP (or LL_CS_REQ) it answers.
public struct LLCSInd: LLControlFieldWalk {
    public static let opcode = LLControlOpcode.csInd

    public var configID: UInt8
    public var connEventCount: UInt16
    /// Offset in µs (24-bit) from the anchor of connEventCount to the first subevent.
    public var offset: UInt32
    /// Event_Interval to RFU (octets 6-17), as LL_CS_RSP carries them too.
    public var schedule: LLCSSchedule

    public init(configID: UInt8, connEventCount: UInt16, offset: UInt32, schedule: LLCSSchedule) {
        (self.configID, self.connEventCount, self.offset, self.schedule) = (configID, connEventCount, offset, schedule)
    }

    public static var blank: Self { Self(configID: 0, connEventCount: 0, offset: 0, schedule: .blank) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.llConfigID(&configID)
        try c.u16(&connEventCount, "connEventCount")
        try c.u24(&offset, "Offset")
        try schedule.fields(&c)
    }

}
