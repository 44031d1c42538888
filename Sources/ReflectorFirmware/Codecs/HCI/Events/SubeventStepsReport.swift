import WireFormat

/// What LE CS Subevent Result and LE CS Subevent Result Continue both end with (Core 6.0 Vol 4
/// Part E §7.7.65.44–45), after their own headers: the done statuses, the abort reasons and the
/// steps of (part of) one subevent.
///
/// `Procedure_Done_Status 1 | Subevent_Done_Status 1 | Abort_Reason 1 | Num_Antenna_Paths 1 |
/// Num_Steps_Reported 1 | steps (SubeventStep)`
///
/// Num_Antenna_Paths is 0 (not applicable) ... 4; it and the reporting device's role decide how
/// each step's data decodes. Num_Steps_Reported is the low 8 bits of `steps.count`.
public struct SubeventStepsReport: Sendable, Equatable {
    public var procedureDoneStatus: ProcedureDoneStatus
    public var subeventDoneStatus: SubeventDoneStatus
    public var abortReasons: AbortReasons
    /// N_AP, 0 (not applicable) ... 4.
    public var numAntennaPaths: UInt8
    public var steps: [SubeventStep]

    public init(procedureDoneStatus: ProcedureDoneStatus = .complete, subeventDoneStatus: SubeventDoneStatus = .complete,
                abortReasons: AbortReasons = .none, numAntennaPaths: UInt8, steps: [SubeventStep]) {
        self.procedureDoneStatus = procedureDoneStatus
        self.subeventDoneStatus = subeventDoneStatus
        self.abortReasons = abortReasons
        self.numAntennaPaths = numAntennaPaths
        self.steps = steps
    }

    /// Octets of the five status octets and the steps.
    public var encodedLength: Int {
        var n = 5
        for s in steps { n += s.encodedLength }
        return n
    }

    func encode(into w: inout ByteWriter) {
        w.u8(procedureDoneStatus.rawValue)
        w.u8(subeventDoneStatus.rawValue)
        w.u8(abortReasons.octet)
        w.u8(numAntennaPaths)
        w.u8(UInt8(truncatingIfNeeded: steps.count))
        for s in steps { s.encode(into: &w) }
    }

    /// `role` is the role of the reporting device; `sequencePCT` whether mode-1/3 steps carry PCT1/PCT2.
    static func decode(from r: inout ByteReader, role: CSRole, sequencePCT: Bool) throws(DecodeError) -> SubeventStepsReport {
        let pds = try r.value("Procedure_Done_Status", as: ProcedureDoneStatus.self)
        let sds = try r.value("Subevent_Done_Status", as: SubeventDoneStatus.self)
        let abort = try AbortReasons(octet: try r.u8("Abort_Reason"))
        let nap = try r.u8("Num_Antenna_Paths")
        guard nap <= 4 else { throw .invalidValue(field: "Num_Antenna_Paths", value: Int(nap)) }
        let count = Int(try r.u8("Num_Steps_Reported"))
        let context = StepDataContext(role: role, antennaPaths: Int(nap), sequencePCT: sequencePCT)
        var steps: [SubeventStep] = []
        // Every step takes at least 6 octets; do not reserve more than the input could hold.
        steps.reserveCapacity(Swift.min(count, r.remaining / 6))
        for _ in 0..<count { steps.append(try SubeventStep.decode(context: context, from: &r)) }
        return SubeventStepsReport(procedureDoneStatus: pds, subeventDoneStatus: sds, abortReasons: abort, numAntennaPaths: nap, steps: steps)
    }
}
