import WireFormat

/// LE CS Procedure Enable Complete (LE Meta 0x30): CS procedures were enabled or disabled, with
/// the parameters the controllers chose (Core 6.0 Vol 4 Part E §7.7.65.43).
///
/// 21 octets: `Status 1 | Connection_Handle 2 | Config_ID 1 | State 1 (0 disabled, 1 enabled) |
/// Tone_Antenna_Config_Selection 1 | Selected_TX_Power int8 dBm | Subevent_Len 3 (µs) |
/// Subevents_Per_Event 1 | Subevent_Interval 2 (0.625 ms) | Event_Interval 2 |
/// Procedure_Interval 2 | Procedure_Count 2 | Max_Procedure_Len 2 (0.625 ms)`.
///
/// When State is 0 the fields after it are ignored by receivers, so the decoder checks
/// Tone_Antenna_Config_Selection (0...7) only when State is 1 and Status is success.
public struct LECSProcedureEnableComplete: LEMetaSubevent {
    public static let subeventCode: UInt8 = LESubeventCode.csProcedureEnableComplete
    public static let parameterLength = 21

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var configID: UInt8
    public var enabled: Bool
    /// Tone_Antenna_Config_Selection as sent; see `antennaConfiguration`.
    public var antennaConfigurationIndex: UInt8
    public var selectedTxPower: Int8
    /// Subevent_Len in microseconds (24 bits).
    public var subeventLength: UInt32
    public var subeventsPerEvent: UInt8
    public var subeventInterval: UInt16
    public var eventInterval: UInt16
    public var procedureInterval: UInt16
    public var procedureCount: UInt16
    public var maxProcedureLength: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16, configID: UInt8, enabled: Bool,
                antennaConfigurationIndex: UInt8 = 0, selectedTxPower: Int8 = 0, subeventLength: UInt32 = 0,
                subeventsPerEvent: UInt8 = 1, subeventInterval: UInt16 = 0, eventInterval: UInt16 = 1,
                procedureInterval: UInt16 = 1, procedureCount: UInt16 = 0, maxProcedureLength: UInt16 = 0) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.configID = configID
        self.enabled = enabled
        self.antennaConfigurationIndex = antennaConfigurationIndex
        self.selectedTxPower = selectedTxPower
        self.subeventLength = subeventLength
        self.subeventsPerEvent = subeventsPerEvent
        self.subeventInterval = subeventInterval
        self.eventInterval = eventInterval
        self.procedureInterval = procedureInterval
        self.procedureCount = procedureCount
        self.maxProcedureLength = maxProcedureLength
    }

    public var antennaConfiguration: AntennaConfiguration? { AntennaConfiguration(index: antennaConfigurationIndex) }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(configID)
        w.u8(enabled ? 1 : 0)
        w.u8(antennaConfigurationIndex)
        w.i8(selectedTxPower)
        w.u24(subeventLength)
        w.u8(subeventsPerEvent)
        w.u16(subeventInterval)
        w.u16(eventInterval)
        w.u16(procedureInterval)
        w.u16(procedureCount)
        w.u16(maxProcedureLength)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSProcedureEnableComplete {
        let s = try r.status()
        let h = try r.connectionHandle()
        let id = try r.configID()
        let state = try r.u8("State")
        guard state <= 1 else { throw .invalidValue(field: "State", value: Int(state)) }
        let aci = try r.u8("Tone_Antenna_Config_Selection")
        if state == 1 && s == .success && aci > 7 {
            throw .invalidValue(field: "Tone_Antenna_Config_Selection", value: Int(aci))
        }
        let e = LECSProcedureEnableComplete(
            status: s, connectionHandle: h, configID: id, enabled: state == 1, antennaConfigurationIndex: aci,
            selectedTxPower: try r.i8("Selected_TX_Power"), subeventLength: try r.u24("Subevent_Len"),
            subeventsPerEvent: try r.u8("Subevents_Per_Event"), subeventInterval: try r.u16("Subevent_Interval"),
            eventInterval: try r.u16("Event_Interval"), procedureInterval: try r.u16("Procedure_Interval"),
            procedureCount: try r.u16("Procedure_Count"), maxProcedureLength: try r.u16("Max_Procedure_Len"))
        return e
    }
}
