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
public struct LECSProcedureEnableComplete: LEMetaSubevent, HCIFieldWalk {
    public static let subeventCode: UInt8 = LESubeventCode.csProcedureEnableComplete
    public static var name: StaticString { "LE CS Procedure Enable Complete" }
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
        (self.status, self.connectionHandle, self.configID, self.enabled, self.antennaConfigurationIndex, self.selectedTxPower) =
            (status, connectionHandle, configID, enabled, antennaConfigurationIndex, selectedTxPower)
        (self.subeventLength, self.subeventsPerEvent, self.subeventInterval, self.eventInterval) = (subeventLength, subeventsPerEvent, subeventInterval, eventInterval)
        (self.procedureInterval, self.procedureCount, self.maxProcedureLength) = (procedureInterval, procedureCount, maxProcedureLength)
    }

    public var antennaConfiguration: AntennaConfiguration? { AntennaConfiguration(index: antennaConfigurationIndex) }

    public static var blank: Self { Self(connectionHandle: 0, configID: 0, enabled: false) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.status(&status); try c.connectionHandle(&connectionHandle); try c.configID(&configID)
        try c.flag(&enabled, "State")
        // Receivers ignore what follows State 0, so the selection is checked only when enabled.
        try c.u8(&antennaConfigurationIndex, "Tone_Antenna_Config_Selection")
        try c.require(!enabled || status != .success || antennaConfigurationIndex <= 7, "Tone_Antenna_Config_Selection", Int(antennaConfigurationIndex))
        try c.i8(&selectedTxPower, "Selected_TX_Power")
        // The subevents, then the procedures.
        try c.u24(&subeventLength, "Subevent_Len"); try c.u8(&subeventsPerEvent, "Subevents_Per_Event"); try c.u16(&subeventInterval, "Subevent_Interval")
        try c.u16(&eventInterval, "Event_Interval"); try c.u16(&procedureInterval, "Procedure_Interval")
        try c.u16(&procedureCount, "Procedure_Count"); try c.u16(&maxProcedureLength, "Max_Procedure_Len")
    }

}
