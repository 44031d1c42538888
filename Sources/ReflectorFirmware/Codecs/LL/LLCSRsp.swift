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
/// One third-party header also puts Procedure_Interval, Procedure_Count, Preferred_Peer_Antenna
/// and TX_SNR here; that cannot fit 21 octets and matches no controller, so it is not followed.
public struct LLCSRsp: Sendable, Equatable {
    public static let opcode = LLControlOpcode.csRsp

    public var configID: UInt8
    public var connEventCount: UInt16
    /// Offset_Min and Offset_Max in µs (24-bit).
    public var offsetMin: UInt32
    public var offsetMax: UInt32
    /// Event_Interval in ACL connection events.
    public var eventInterval: UInt16
    public var subeventsPerEvent: UInt8
    /// Subevent_Interval in units of 0.625 ms.
    public var subeventInterval: UInt16
    /// Subevent_Len in µs (24-bit).
    public var subeventLength: UInt32
    /// ACI, 0...7.
    public var aci: UInt8
    public var phy: UInt8
    /// Pwr_Delta in dB; 0x80 = no recommendation.
    public var powerDelta: Int8

    public init(
        configID: UInt8, connEventCount: UInt16, offsetMin: UInt32, offsetMax: UInt32, eventInterval: UInt16,
        subeventsPerEvent: UInt8, subeventInterval: UInt16, subeventLength: UInt32, aci: UInt8, phy: UInt8,
        powerDelta: Int8
    ) {
        self.configID = configID
        self.connEventCount = connEventCount
        self.offsetMin = offsetMin
        self.offsetMax = offsetMax
        self.eventInterval = eventInterval
        self.subeventsPerEvent = subeventsPerEvent
        self.subeventInterval = subeventInterval
        self.subeventLength = subeventLength
        self.aci = aci
        self.phy = phy
        self.powerDelta = powerDelta
    }

    public func encodeBody(into w: inout ByteWriter) {
        w.u8(configID & 0x3F)
        w.u16(connEventCount)
        w.u24(offsetMin)
        w.u24(offsetMax)
        w.u16(eventInterval)
        w.u8(subeventsPerEvent)
        w.u16(subeventInterval)
        w.u24(subeventLength)
        w.u8(aci)
        w.u8(phy & 0x0F)
        w.i8(powerDelta)
        w.u8(0)
    }

    static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSRsp {
        let id = try r.llConfigIDOctet().configID
        let event = try r.u16("connEventCount")
        let offMin = try r.u24("Offset_Min")
        let offMax = try r.u24("Offset_Max")
        let eventInterval = try r.u16("Event_Interval")
        let perEvent = try r.u8("Subevents_Per_Event")
        let subInterval = try r.u16("Subevent_Interval")
        let subLen = try r.u24("Subevent_Len")
        let aci = try LLFieldCheck.aci(r.u8("ACI"))
        let phy = try LLFieldCheck.phy(r.u8("PHY") & 0x0F)
        let delta = try r.i8("Pwr_Delta")
        _ = try r.u8("RFU")
        return LLCSRsp(
            configID: id, connEventCount: event, offsetMin: offMin, offsetMax: offMax, eventInterval: eventInterval,
            subeventsPerEvent: perEvent, subeventInterval: subInterval, subeventLength: subLen, aci: aci, phy: phy,
            powerDelta: delta)
    }
}

extension LLCSRsp {
    /// `Opcode | CtrData` (see `LLControlPDU.encode()`).
    public func encode() -> [UInt8] { LLControlPDU.csRsp(self).encode() }

    /// Decodes `Opcode | CtrData`; `.unexpectedCode` for another opcode.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> LLCSRsp {
        guard case let .csRsp(p) = try LLControlPDU.payload(bytes, expecting: opcode) else {
            throw .unexpectedCode(expected: Int(opcode.rawValue), found: -1)
        }
        return p
    }
}
