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
public struct LLCSInd: Sendable, Equatable {
    public static let opcode = LLControlOpcode.csInd

    public var configID: UInt8
    public var connEventCount: UInt16
    /// Offset in µs (24-bit) from the anchor of connEventCount to the first subevent.
    public var offset: UInt32
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
        configID: UInt8, connEventCount: UInt16, offset: UInt32, eventInterval: UInt16, subeventsPerEvent: UInt8,
        subeventInterval: UInt16, subeventLength: UInt32, aci: UInt8, phy: UInt8, powerDelta: Int8
    ) {
        self.configID = configID
        self.connEventCount = connEventCount
        self.offset = offset
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
        w.u24(offset)
        w.u16(eventInterval)
        w.u8(subeventsPerEvent)
        w.u16(subeventInterval)
        w.u24(subeventLength)
        w.u8(aci)
        w.u8(phy & 0x0F)
        w.i8(powerDelta)
        w.u8(0)
    }

    static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSInd {
        let id = try r.llConfigIDOctet().configID
        let event = try r.u16("connEventCount")
        let offset = try r.u24("Offset")
        let eventInterval = try r.u16("Event_Interval")
        let perEvent = try r.u8("Subevents_Per_Event")
        let subInterval = try r.u16("Subevent_Interval")
        let subLen = try r.u24("Subevent_Len")
        let aci = try LLFieldCheck.aci(r.u8("ACI"))
        let phy = try LLFieldCheck.phy(r.u8("PHY") & 0x0F)
        let delta = try r.i8("Pwr_Delta")
        _ = try r.u8("RFU")
        return LLCSInd(
            configID: id, connEventCount: event, offset: offset, eventInterval: eventInterval,
            subeventsPerEvent: perEvent, subeventInterval: subInterval, subeventLength: subLen, aci: aci, phy: phy,
            powerDelta: delta)
    }
}

extension LLCSInd {
    /// `Opcode | CtrData` (see `LLControlPDU.encode()`).
    public func encode() -> [UInt8] { LLControlPDU.csInd(self).encode() }

    /// Decodes `Opcode | CtrData`; `.unexpectedCode` for another opcode.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> LLCSInd {
        guard case let .csInd(p) = try LLControlPDU.payload(bytes, expecting: opcode) else {
            throw .unexpectedCode(expected: Int(opcode.rawValue), found: -1)
        }
        return p
    }
}
