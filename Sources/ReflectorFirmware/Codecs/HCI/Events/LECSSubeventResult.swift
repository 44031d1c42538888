import WireFormat

/// LE CS Subevent Result (LE Meta 0x31): the results of (the first part of) one CS subevent
/// (Core 6.0 Vol 4 Part E §7.7.65.44).
///
/// 15-octet header: `Connection_Handle 2 | Config_ID 1 | Start_ACL_Conn_Event_Counter 2 |
/// Procedure_Counter 2 | Frequency_Compensation 2 | Reference_Power_Level int8 |
/// Procedure_Done_Status 1 | Subevent_Done_Status 1 | Abort_Reason 1 | Num_Antenna_Paths 1 |
/// Num_Steps_Reported 1`, then the steps (`SubeventStep`).
///
/// The same type also holds a whole reassembled subevent (see `SubeventResultReassembler`),
/// which may be too long for one event; `splitIntoEvents()` cuts it to size.
/// Decoding needs the role and whether PCT1/PCT2 are present; N_AP comes from the header.
public struct LECSSubeventResult: SubeventResultParameters {
    public static let subeventCode: UInt8 = LESubeventCode.csSubeventResult
    public static var name: StaticString { "LE CS Subevent Result" }
    public static let headerLength = 15

    public var connectionHandle: UInt16
    public var configID: UInt8
    public var startACLConnectionEventCounter: UInt16
    public var procedureCounter: UInt16
    /// 0.01 ppm, 15-bit signed; 0xC000 = not available (always so on the reflector).
    public var frequencyCompensation: UInt16
    /// dBm; 0x7F = not available.
    public var referencePowerLevel: Int8
    /// Procedure_Done_Status to the steps (also readable as this event's own fields).
    public var stepsReport: SubeventStepsReport

    public init(connectionHandle: UInt16, configID: UInt8, startACLConnectionEventCounter: UInt16, procedureCounter: UInt16,
                frequencyCompensation: UInt16 = 0xC000, referencePowerLevel: Int8 = 0x7F, stepsReport: SubeventStepsReport) {
        self.connectionHandle = connectionHandle
        self.configID = configID
        self.startACLConnectionEventCounter = startACLConnectionEventCounter
        self.procedureCounter = procedureCounter
        self.frequencyCompensation = frequencyCompensation
        self.referencePowerLevel = referencePowerLevel
        self.stepsReport = stepsReport
    }

    public init(connectionHandle: UInt16, configID: UInt8, startACLConnectionEventCounter: UInt16, procedureCounter: UInt16,
                frequencyCompensation: UInt16 = 0xC000, referencePowerLevel: Int8 = 0x7F,
                procedureDoneStatus: ProcedureDoneStatus = .complete, subeventDoneStatus: SubeventDoneStatus = .complete,
                abortReasons: AbortReasons = .none, numAntennaPaths: UInt8, steps: [SubeventStep]) {
        self.init(connectionHandle: connectionHandle, configID: configID, startACLConnectionEventCounter: startACLConnectionEventCounter,
                  procedureCounter: procedureCounter, frequencyCompensation: frequencyCompensation, referencePowerLevel: referencePowerLevel,
                  stepsReport: SubeventStepsReport(procedureDoneStatus: procedureDoneStatus, subeventDoneStatus: subeventDoneStatus,
                                                   abortReasons: abortReasons, numAntennaPaths: numAntennaPaths, steps: steps))
    }

    /// The parameters after the subevent code. `packet` (from `LEMetaSubeventEncodable`) is
    /// valid only when `encodedLength` ≤ 254; else use `splitIntoEvents()`.
    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8(configID)
        w.u16(startACLConnectionEventCounter)
        w.u16(procedureCounter)
        w.u16(frequencyCompensation)
        w.i8(referencePowerLevel)
        stepsReport.encode(into: &w)
    }

    public static func decodeParameters(_ r: inout ByteReader, role: CSRole, sequencePCT: Bool) throws(DecodeError) -> LECSSubeventResult {
        let h = try r.connectionHandle()
        let id = try r.configID()
        let start = try r.u16("Start_ACL_Conn_Event_Counter")
        let counter = try r.u16("Procedure_Counter")
        let fc = try r.u16("Frequency_Compensation")
        let power = try r.i8("Reference_Power_Level")
        let report = try SubeventStepsReport.decode(from: &r, role: role, sequencePCT: sequencePCT)
        return LECSSubeventResult(connectionHandle: h, configID: id, startACLConnectionEventCounter: start, procedureCounter: counter,
                                  frequencyCompensation: fc, referencePowerLevel: power, stepsReport: report)
    }
}
