/// One CS procedure's results as a host receives them from its controller: every subevent,
/// reassembled from LE CS Subevent Result and Continue events.
public struct ProcedureResults: Sendable, Equatable {
    public var procedureCounter: UInt16
    public var configID: UInt8
    public var antennaPaths: Int
    public var subevents: [LECSSubeventResult]

    public init(procedureCounter: UInt16, configID: UInt8, antennaPaths: Int, subevents: [LECSSubeventResult]) {
        self.procedureCounter = procedureCounter
        self.configID = configID
        self.antennaPaths = antennaPaths
        self.subevents = subevents
    }

    /// All steps in the order they ran.
    public var steps: [SubeventStep] {
        var all: [SubeventStep] = []
        for s in subevents { all.append(contentsOf: s.steps) }
        return all
    }

    /// Whether the controller aborted the procedure (Procedure_Done_Status 0xF).
    public var isAborted: Bool { subevents.contains { $0.procedureDoneStatus == .aborted } }

    /// The initiator's frequency compensation in 0.01 ppm, if reported.
    public var frequencyCompensation: Int16? {
        guard let raw = subevents.first?.frequencyCompensation, raw != 0xC000 else { return nil }
        return Int16(bitPattern: raw << 1) >> 1
    }
}
