import ReflectorFirmware

/// Gathers a vendor log's subevents into procedures, per role and Config_ID, the way a host
/// gathers LE CS Subevent Result events: a procedure's subevents share the Procedure_Counter
/// and the last one has Procedure_Done_Status complete (0) or aborted (0xF); a subevent with
/// another counter before that starts a new procedure (the partial one is dropped, as a host
/// that missed events would). Each procedure is `CapturedProcedure` with `origin`.
struct LoggedProcedures {
    private struct Key: Hashable {
        var role: CSRole
        var configID: UInt8
    }

    private var pending: [Key: (counter: UInt16, results: [LECSSubeventResult])] = [:]
    let origin: CaptureOrigin
    private(set) var capture = CaptureProcedures()

    init(origin: CaptureOrigin) { self.origin = origin }

    /// The next subevent of the log, which ends on line `endLine`; a step-data error throws.
    /// `vendorDistance` goes with the procedure it completes.
    mutating func add(_ subevent: LoggedSubevent, endLine: Int, vendorDistance: VendorDistance? = nil) throws(LogLineError) {
        let steps = try subevent.steps()
        let key = Key(role: subevent.role, configID: subevent.configID)
        var results = pending[key].flatMap { $0.counter == subevent.procedureCounter ? $0.results : nil } ?? []
        results.append(subevent.result(steps: steps))
        guard subevent.procedureDoneStatus != .partial else {
            pending[key] = (subevent.procedureCounter, results)
            return
        }
        pending[key] = nil
        let procedure = ProcedureResults(procedureCounter: subevent.procedureCounter, configID: subevent.configID,
                                         antennaPaths: subevent.antennaPaths, subevents: results)
        var captured = CapturedProcedure(results: procedure, connectionHandle: 0, role: subevent.role, inlinePCT: nil,
                                         antennaPaths: subevent.antennaPaths, offset: endLine, origin: origin)
        captured.vendorDistance = vendorDistance
        capture.append(captured)
    }

    /// Reading stopped at `error`, which is the capture's last problem.
    mutating func fail(_ error: LogLineError) { capture.append(error.problem) }
}
