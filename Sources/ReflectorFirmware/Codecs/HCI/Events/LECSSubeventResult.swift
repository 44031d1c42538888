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
public struct LECSSubeventResult: Sendable, Equatable {
    public static let subeventCode: UInt8 = 0x31
    public static let headerLength = 15

    public var connectionHandle: UInt16
    public var configID: UInt8
    public var startACLConnectionEventCounter: UInt16
    public var procedureCounter: UInt16
    /// 0.01 ppm, 15-bit signed; 0xC000 = not available (always so on the reflector).
    public var frequencyCompensation: UInt16
    /// dBm; 0x7F = not available.
    public var referencePowerLevel: Int8
    public var procedureDoneStatus: ProcedureDoneStatus
    public var subeventDoneStatus: SubeventDoneStatus
    public var abortReasons: AbortReasons
    /// N_AP, 0 (not applicable) ... 4.
    public var numAntennaPaths: UInt8
    public var steps: [SubeventStep]

    public init(connectionHandle: UInt16, configID: UInt8, startACLConnectionEventCounter: UInt16, procedureCounter: UInt16,
                frequencyCompensation: UInt16 = 0xC000, referencePowerLevel: Int8 = 0x7F,
                procedureDoneStatus: ProcedureDoneStatus = .complete, subeventDoneStatus: SubeventDoneStatus = .complete,
                abortReasons: AbortReasons = .none, numAntennaPaths: UInt8, steps: [SubeventStep]) {
        self.connectionHandle = connectionHandle
        self.configID = configID
        self.startACLConnectionEventCounter = startACLConnectionEventCounter
        self.procedureCounter = procedureCounter
        self.frequencyCompensation = frequencyCompensation
        self.referencePowerLevel = referencePowerLevel
        self.procedureDoneStatus = procedureDoneStatus
        self.subeventDoneStatus = subeventDoneStatus
        self.abortReasons = abortReasons
        self.numAntennaPaths = numAntennaPaths
        self.steps = steps
    }

    /// Header plus steps, in octets (without the subevent code).
    public var encodedLength: Int {
        var n = Self.headerLength
        for s in steps { n += s.encodedLength }
        return n
    }

    /// The parameters after the subevent code. Num_Steps_Reported is the low 8 bits of
    /// `steps.count`; a subevent holds at most 160 steps.
    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: encodedLength)
        w.u16(connectionHandle)
        w.u8(configID)
        w.u16(startACLConnectionEventCounter)
        w.u16(procedureCounter)
        w.u16(frequencyCompensation)
        w.i8(referencePowerLevel)
        w.u8(procedureDoneStatus.rawValue)
        w.u8(subeventDoneStatus.rawValue)
        w.u8(abortReasons.octet)
        w.u8(numAntennaPaths)
        w.u8(UInt8(truncatingIfNeeded: steps.count))
        for s in steps { s.encode(into: &w) }
        return w.bytes
    }

    /// The LE Meta event; only valid when `encodedLength` ≤ 254 (else use `splitIntoEvents()`).
    public var packet: HCIEventPacket { HCIEventPacket(leSubevent: Self.subeventCode, body: encode()) }

    /// Parses the parameters after the subevent code. `role` is the role of the reporting
    /// device; `sequencePCT` whether mode-1/3 steps carry PCT1/PCT2.
    public static func decode(_ parameters: some Collection<UInt8>, role: CSRole, sequencePCT: Bool = false) throws(DecodeError) -> LECSSubeventResult {
        var r = ByteReader(parameters)
        let h = try r.connectionHandle()
        let id = try r.configID()
        let start = try r.u16("Start_ACL_Conn_Event_Counter")
        let counter = try r.u16("Procedure_Counter")
        let fc = try r.u16("Frequency_Compensation")
        let power = try r.i8("Reference_Power_Level")
        let pds = try ProcedureDoneStatus.decode(try r.u8("Procedure_Done_Status"), "Procedure_Done_Status")
        let sds = try SubeventDoneStatus.decode(try r.u8("Subevent_Done_Status"), "Subevent_Done_Status")
        let abort = try AbortReasons(octet: try r.u8("Abort_Reason"))
        let nap = try r.u8("Num_Antenna_Paths")
        guard nap <= 4 else { throw .invalidValue(field: "Num_Antenna_Paths", value: Int(nap)) }
        let n = Int(try r.u8("Num_Steps_Reported"))
        let steps = try decodeSteps(count: n, context: StepDataContext(role: role, antennaPaths: Int(nap), sequencePCT: sequencePCT), from: &r)
        try r.expectEnd()
        return LECSSubeventResult(
            connectionHandle: h, configID: id, startACLConnectionEventCounter: start, procedureCounter: counter,
            frequencyCompensation: fc, referencePowerLevel: power, procedureDoneStatus: pds, subeventDoneStatus: sds,
            abortReasons: abort, numAntennaPaths: nap, steps: steps)
    }

    /// Parses `packet`, checking that it is LE Meta subevent 0x31.
    public static func decode(packet: HCIEventPacket, role: CSRole, sequencePCT: Bool = false) throws(DecodeError) -> LECSSubeventResult {
        try decode(try packet.leSubeventBody(subeventCode), role: role, sequencePCT: sequencePCT)
    }

    static func decodeSteps(count: Int, context: StepDataContext, from r: inout ByteReader) throws(DecodeError) -> [SubeventStep] {
        var steps: [SubeventStep] = []
        // Every step takes at least 6 octets; do not reserve more than the input could hold.
        steps.reserveCapacity(Swift.min(count, r.remaining / 6))
        for _ in 0..<count { steps.append(try SubeventStep.decode(context: context, from: &r)) }
        return steps
    }
}
