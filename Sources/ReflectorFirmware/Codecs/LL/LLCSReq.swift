import WireFormat

/// LL_CS_REQ (opcode 0x32, 28 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.47, best
/// knowledge): opens the Channel Sounding Start procedure after LE CS Procedure Enable. The
/// initiator proposes the scheduling of the CS procedures of configuration Config_ID; the
/// peer answers LL_CS_RSP (peripheral) or LL_CS_IND (central).
///
/// Layout (NimBLE PR #1765 `ble_ll_cs_start_req_make` / `ble_ll_cs_rx_cs_start_req`; Telink
/// `rf_packet_ll_cs_req_t` and Zephyr's `pdu_data_llctrl_cs_req` agree, Telink's older draft
/// has RFU where TX_SNR is), all little-endian:
///
/// ```
///  0 Config_ID (b0-5; b6-7 RFU)   1-2 connEventCount   3-5 Offset_Min (µs)   6-8 Offset_Max (µs)
///  9-10 Max_Procedure_Len (0.625 ms)  11-12 Event_Interval (ACL events)  13 Subevents_Per_Event
/// 14-15 Subevent_Interval (0.625 ms)  16-18 Subevent_Len (µs)  19-20 Procedure_Interval (ACL events)
/// 21-22 Procedure_Count  23 ACI  24 Preferred_Peer_Antenna (b0-3)  25 PHY (b0-3)  26 Pwr_Delta (int8)
/// 27 TX_SNR_I (b0-3) | TX_SNR_R (b4-7)
/// ```
///
/// Decoding checks ACI ≤ 7, PHY 1...4 (see `FieldCoder.llPHY`), and each TX_SNR nibble 0...4
/// or 0xF (not applied); RFU bits are ignored. Offsets and Subevent_Len are 24-bit: the encoder
/// writes their low 24 bits. Pwr_Delta 0x80 (−128) means "no recommendation".
public struct LLCSReq: LLControlFieldWalk {
    public static let opcode = LLControlOpcode.csReq

    public var configID: UInt8
    /// connEventCount: the ACL connection event the offsets are measured from.
    public var connEventCount: UInt16
    /// Offset_Min and Offset_Max in µs (24-bit): the window for the first subevent after the anchor.
    public var offsetMin: UInt32
    public var offsetMax: UInt32
    /// Max_Procedure_Len in units of 0.625 ms.
    public var maxProcedureLength: UInt16
    /// Event_Interval in ACL connection events.
    public var eventInterval: UInt16
    public var subeventsPerEvent: UInt8
    /// Subevent_Interval in units of 0.625 ms (0 with a single subevent per event).
    public var subeventInterval: UInt16
    /// Subevent_Len in µs (24-bit).
    public var subeventLength: UInt32
    /// Procedure_Interval in ACL connection events.
    public var procedureInterval: UInt16
    /// Procedure_Count (0 = until disabled).
    public var procedureCount: UInt16
    /// ACI (Tone_Antenna_Config_Selection), 0...7.
    public var aci: UInt8
    /// Preferred_Peer_Antenna, bits 0...3.
    public var preferredPeerAntenna: UInt8
    public var phy: UInt8
    /// Pwr_Delta in dB; 0x80 = no recommendation.
    public var powerDelta: Int8
    /// TX_SNR_I and TX_SNR_R: SNR control index 0...4 (18...30 dB) or 0xF (not applied).
    public var txSNRInitiator: UInt8
    public var txSNRReflector: UInt8

    public init(
        configID: UInt8, connEventCount: UInt16, offsetMin: UInt32, offsetMax: UInt32, maxProcedureLength: UInt16,
        eventInterval: UInt16, subeventsPerEvent: UInt8, subeventInterval: UInt16, subeventLength: UInt32,
        procedureInterval: UInt16, procedureCount: UInt16, aci: UInt8, preferredPeerAntenna: UInt8, phy: UInt8,
        powerDelta: Int8, txSNRInitiator: UInt8 = 0x0F, txSNRReflector: UInt8 = 0x0F
    ) {
        (self.configID, self.connEventCount, self.offsetMin, self.offsetMax, self.maxProcedureLength) = (configID, connEventCount, offsetMin, offsetMax, maxProcedureLength)
        (self.eventInterval, self.subeventsPerEvent, self.subeventInterval, self.subeventLength) = (eventInterval, subeventsPerEvent, subeventInterval, subeventLength)
        (self.procedureInterval, self.procedureCount, self.aci, self.preferredPeerAntenna, self.phy) = (procedureInterval, procedureCount, aci, preferredPeerAntenna, phy)
        (self.powerDelta, self.txSNRInitiator, self.txSNRReflector) = (powerDelta, txSNRInitiator, txSNRReflector)
    }

    /// The proposed subevent schedule, as LL_CS_RSP and LL_CS_IND carry it back.
    public var schedule: LLCSSchedule {
        LLCSSchedule(eventInterval: eventInterval, subeventsPerEvent: subeventsPerEvent, subeventInterval: subeventInterval,
                     subeventLength: subeventLength, aci: aci, phy: phy, powerDelta: powerDelta)
    }

    public static var blank: Self {
        Self(configID: 0, connEventCount: 0, offsetMin: 0, offsetMax: 0, maxProcedureLength: 0, eventInterval: 0, subeventsPerEvent: 0, subeventInterval: 0,
             subeventLength: 0, procedureInterval: 0, procedureCount: 0, aci: 0, preferredPeerAntenna: 0, phy: 1, powerDelta: 0)
    }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.llConfigID(&configID)
        // Where the first subevent may start.
        try c.u16(&connEventCount, "connEventCount"); try c.u24(&offsetMin, "Offset_Min"); try c.u24(&offsetMax, "Offset_Max")
        // The events and subevents, then the procedures.
        try c.u16(&maxProcedureLength, "Max_Procedure_Len"); try c.u16(&eventInterval, "Event_Interval")
        try c.u8(&subeventsPerEvent, "Subevents_Per_Event"); try c.u16(&subeventInterval, "Subevent_Interval"); try c.u24(&subeventLength, "Subevent_Len")
        try c.u16(&procedureInterval, "Procedure_Interval"); try c.u16(&procedureCount, "Procedure_Count")
        // Antennas, PHY and power.
        try c.llACI(&aci); try c.masked(&preferredPeerAntenna, 0x0F, "Preferred_Peer_Antenna"); try c.llPHY(&phy); try c.i8(&powerDelta, "Pwr_Delta")
        var snr = (txSNRInitiator & 0x0F) | (txSNRReflector & 0x0F) << 4
        try c.u8(&snr, "TX_SNR")
        (txSNRInitiator, txSNRReflector) = (snr & 0x0F, snr >> 4)
        // Each nibble 0...4 (18...30 dB) or 0xF (not applied).
        try c.require(txSNRInitiator <= 4 || txSNRInitiator == 0x0F, "TX_SNR_I", Int(txSNRInitiator))
        try c.require(txSNRReflector <= 4 || txSNRReflector == 0x0F, "TX_SNR_R", Int(txSNRReflector))
    }

}
