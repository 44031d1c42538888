/// The procedures of one enabled configuration, from LE CS Procedure Enable until they are
/// disabled or Max_Procedure_Count is reached: the step engine both controllers run in
/// lockstep, where each procedure starts, and the step results gathered into LE CS Subevent
/// Result events (Core 6.0 Vol 6 Part H §4; Vol 4 Part E §7.7.65.44). The planner, the one part
/// that depends on the controller's `BlockCipher`, is the controller's own, beside this.
struct ProcedureRun: Sendable {
    let engine: CSStepEngine
    let configID: UInt8
    let role: CSRole
    /// Max_Procedure_Count; 0 runs until disabled.
    let procedureCount: UInt16
    /// Microseconds between procedure starts (Procedure_Interval connection events).
    let procedureInterval: UInt64
    /// Connection events between subevents (Event_Interval; one subevent per event).
    let eventInterval: UInt16
    /// Connection events between procedures.
    let procedureIntervalEvents: UInt16
    let referencePowerLevel: Int8

    /// Start of the first procedure on the controller clock, and its connection event.
    let firstStart: UInt64
    let firstEvent: UInt16
    var completed = 0
    /// Whether a procedure is being planned and run now.
    var inProcedure = false
    var procedureStart: UInt64 = 0
    var procedureEvent: UInt16 = 0
    /// The procedure counter of the procedure being run (the planner's, as it began it).
    var procedureCounter: UInt16 = 0

    /// Results of the subevent being run.
    var subevent: UInt8 = 0
    var steps: [SubeventStep] = []
    var subeventAborted = false
    /// Initiator: frequency compensation applied so far this procedure, in ppm.
    var compensationPPM: Float = 0
    /// Initiator: mode-0 frequency measurements taken so far this procedure.
    var frequencyMeasurements = 0

    init(engine: CSStepEngine, configID: UInt8, procedureCount: UInt16, procedureIntervalEvents: UInt16,
         eventInterval: UInt16, connectionInterval: UInt32, referencePowerLevel: Int8, firstStart: UInt64, firstEvent: UInt16) {
        self.engine = engine
        self.configID = configID
        role = engine.role
        self.procedureCount = procedureCount
        self.procedureIntervalEvents = max(procedureIntervalEvents, 1)
        procedureInterval = UInt64(max(procedureIntervalEvents, 1)) * UInt64(connectionInterval)
        self.eventInterval = max(eventInterval, 1)
        self.referencePowerLevel = referencePowerLevel
        self.firstStart = firstStart
        self.firstEvent = firstEvent
        steps.reserveCapacity(ProcedureLimits.maxStepsPerSubevent)
    }

    /// A procedure begins at `start` with the planner's `procedureCounter`: its connection
    /// event, and an empty first subevent (the step buffer keeps its capacity).
    mutating func begin(at start: UInt64, procedureCounter: UInt16) {
        self.procedureCounter = procedureCounter
        inProcedure = true
        procedureStart = start
        procedureEvent = firstEvent &+ UInt16(truncatingIfNeeded: completed) &* procedureIntervalEvents
        subevent = 0
        steps.removeAll(keepingCapacity: true)
        compensationPPM = 0
        frequencyMeasurements = 0
    }

    /// The running procedure ended: it counts towards Max_Procedure_Count.
    mutating func finishProcedure() {
        inProcedure = false
        completed += 1
    }

    var isFinished: Bool { procedureCount != 0 && completed >= Int(procedureCount) }

    /// Where the next procedure starts, or nil when the count is reached.
    var nextStart: UInt64? {
        isFinished ? nil : firstStart + UInt64(completed) * procedureInterval
    }
}
