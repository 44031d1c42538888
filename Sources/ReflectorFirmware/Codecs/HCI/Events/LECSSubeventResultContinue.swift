import WireFormat

/// LE CS Subevent Result Continue (LE Meta 0x32): further steps of a subevent whose results
/// did not fit in one LE CS Subevent Result event (Core 6.0 Vol 4 Part E §7.7.65.45).
///
/// 8-octet header: `Connection_Handle 2 | Config_ID 1 | Procedure_Done_Status 1 |
/// Subevent_Done_Status 1 | Abort_Reason 1 | Num_Antenna_Paths 1 | Num_Steps_Reported 1`,
/// then the steps.
public struct LECSSubeventResultContinue: Sendable, Equatable {
    public static let subeventCode: UInt8 = 0x32
    public static let headerLength = 8

    public var connectionHandle: UInt16
    public var configID: UInt8
    public var procedureDoneStatus: ProcedureDoneStatus
    public var subeventDoneStatus: SubeventDoneStatus
    public var abortReasons: AbortReasons
    public var numAntennaPaths: UInt8
    public var steps: [SubeventStep]

    public init(connectionHandle: UInt16, configID: UInt8, procedureDoneStatus: ProcedureDoneStatus = .complete,
                subeventDoneStatus: SubeventDoneStatus = .complete, abortReasons: AbortReasons = .none,
                numAntennaPaths: UInt8, steps: [SubeventStep]) {
        self.connectionHandle = connectionHandle
        self.configID = configID
        self.procedureDoneStatus = procedureDoneStatus
        self.subeventDoneStatus = subeventDoneStatus
        self.abortReasons = abortReasons
        self.numAntennaPaths = numAntennaPaths
        self.steps = steps
    }

    public var encodedLength: Int {
        var n = Self.headerLength
        for s in steps { n += s.encodedLength }
        return n
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: encodedLength)
        w.u16(connectionHandle)
        w.u8(configID)
        w.u8(procedureDoneStatus.rawValue)
        w.u8(subeventDoneStatus.rawValue)
        w.u8(abortReasons.octet)
        w.u8(numAntennaPaths)
        w.u8(UInt8(truncatingIfNeeded: steps.count))
        for s in steps { s.encode(into: &w) }
        return w.bytes
    }

    public var packet: HCIEventPacket { HCIEventPacket(leSubevent: Self.subeventCode, body: encode()) }

    public static func decode(_ parameters: some Collection<UInt8>, role: CSRole, sequencePCT: Bool = false) throws(DecodeError) -> LECSSubeventResultContinue {
        var r = ByteReader(parameters)
        let h = try r.connectionHandle()
        let id = try r.configID()
        let pds = try ProcedureDoneStatus.decode(try r.u8("Procedure_Done_Status"), "Procedure_Done_Status")
        let sds = try SubeventDoneStatus.decode(try r.u8("Subevent_Done_Status"), "Subevent_Done_Status")
        let abort = try AbortReasons(octet: try r.u8("Abort_Reason"))
        let nap = try r.u8("Num_Antenna_Paths")
        guard nap <= 4 else { throw .invalidValue(field: "Num_Antenna_Paths", value: Int(nap)) }
        let n = Int(try r.u8("Num_Steps_Reported"))
        let steps = try LECSSubeventResult.decodeSteps(
            count: n, context: StepDataContext(role: role, antennaPaths: Int(nap), sequencePCT: sequencePCT), from: &r)
        try r.expectEnd()
        return LECSSubeventResultContinue(connectionHandle: h, configID: id, procedureDoneStatus: pds, subeventDoneStatus: sds,
                                          abortReasons: abort, numAntennaPaths: nap, steps: steps)
    }

    public static func decode(packet: HCIEventPacket, role: CSRole, sequencePCT: Bool = false) throws(DecodeError) -> LECSSubeventResultContinue {
        try decode(try packet.leSubeventBody(subeventCode), role: role, sequencePCT: sequencePCT)
    }
}
