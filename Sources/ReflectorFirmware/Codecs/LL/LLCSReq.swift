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
/// Decoding checks ACI ≤ 7, PHY 1...4 (see `LLFieldCheck.phy`), and each TX_SNR nibble 0...4
/// or 0xF (not applied); RFU bits are ignored. Offsets and Subevent_Len are 24-bit: the encoder
/// writes their low 24 bits. Pwr_Delta 0x80 (−128) means "no recommendation".
public struct LLCSReq: LLControlBody {
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
        self.configID = configID
        self.connEventCount = connEventCount
        self.offsetMin = offsetMin
        self.offsetMax = offsetMax
        self.maxProcedureLength = maxProcedureLength
        self.eventInterval = eventInterval
        self.subeventsPerEvent = subeventsPerEvent
        self.subeventInterval = subeventInterval
        self.subeventLength = subeventLength
        self.procedureInterval = procedureInterval
        self.procedureCount = procedureCount
        self.aci = aci
        self.preferredPeerAntenna = preferredPeerAntenna
        self.phy = phy
        self.powerDelta = powerDelta
        self.txSNRInitiator = txSNRInitiator
        self.txSNRReflector = txSNRReflector
    }

    /// The proposed subevent schedule, as LL_CS_RSP and LL_CS_IND carry it back.
    public var schedule: LLCSSchedule {
        LLCSSchedule(eventInterval: eventInterval, subeventsPerEvent: subeventsPerEvent, subeventInterval: subeventInterval,
                     subeventLength: subeventLength, aci: aci, phy: phy, powerDelta: powerDelta)
    }

    public func encodeBody(into w: inout ByteWriter) {
        w.u8(configID & 0x3F)
        w.u16(connEventCount)
        w.u24(offsetMin)
        w.u24(offsetMax)
        w.u16(maxProcedureLength)
        w.u16(eventInterval)
        w.u8(subeventsPerEvent)
        w.u16(subeventInterval)
        w.u24(subeventLength)
        w.u16(procedureInterval)
        w.u16(procedureCount)
        w.u8(aci)
        w.u8(preferredPeerAntenna & 0x0F)
        w.u8(phy & 0x0F)
        w.i8(powerDelta)
        w.u8((txSNRInitiator & 0x0F) | (txSNRReflector & 0x0F) << 4)
    }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSReq {
        let id = try r.llConfigIDOctet().configID
        let event = try r.u16("connEventCount")
        let offMin = try r.u24("Offset_Min")
        let offMax = try r.u24("Offset_Max")
        let maxLen = try r.u16("Max_Procedure_Len")
        let eventInterval = try r.u16("Event_Interval")
        let perEvent = try r.u8("Subevents_Per_Event")
        let subInterval = try r.u16("Subevent_Interval")
        let subLen = try r.u24("Subevent_Len")
        let procInterval = try r.u16("Procedure_Interval")
        let count = try r.u16("Procedure_Count")
        let aci = try LLFieldCheck.aci(r.u8("ACI"))
        let antenna = try r.u8("Preferred_Peer_Antenna") & 0x0F
        let phy = try LLFieldCheck.phy(r.u8("PHY") & 0x0F)
        let delta = try r.i8("Pwr_Delta")
        let snr = try r.u8("TX_SNR")
        return LLCSReq(
            configID: id, connEventCount: event, offsetMin: offMin, offsetMax: offMax, maxProcedureLength: maxLen,
            eventInterval: eventInterval, subeventsPerEvent: perEvent, subeventInterval: subInterval,
            subeventLength: subLen, procedureInterval: procInterval, procedureCount: count, aci: aci,
            preferredPeerAntenna: antenna, phy: phy, powerDelta: delta,
            txSNRInitiator: try LLFieldCheck.txSNR(snr & 0x0F, "TX_SNR_I"),
            txSNRReflector: try LLFieldCheck.txSNR(snr >> 4, "TX_SNR_R"))
    }
}
