/// Running the enabled procedures: the caller asks when the next procedure starts, begins it,
/// pulls its steps, and lends the radio for each; the controller reports every subevent's
/// results to its host as LE CS Subevent Result events, split into Continue events when they
/// do not fit one (Core 6.0 Vol 4 Part E §7.7.65.44/45).
extension CSController {
    /// When the next procedure starts (µs on the controller clock), or nil when none will:
    /// procedures are disabled or Max_Procedure_Count procedures have run.
    public var nextProcedureStart: UInt64? { run?.inProcedure == true ? nil : run?.nextStart }

    /// This side's role in the enabled procedures (from their configuration), nil while none are
    /// enabled: whoever moves the steps between two controllers pairs them by it.
    public var procedureRole: CSRole? { run?.role }

    /// Begins the next procedure (the caller has advanced the clock to its start). Returns false
    /// when no procedure is due.
    @discardableResult
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public mutating func beginProcedure() -> Bool {
        // Read through the optional rather than copy the run out: a copy would share, and then
        // duplicate, its step buffer.
        guard run?.inProcedure == false, let start = run?.nextStart, planner != nil else { return false }
        planner?.beginProcedure()
        guard let counter = planner?.procedureCounter else { return false }
        run?.begin(at: start, procedureCounter: counter)
        return true
    }

    /// The next step of the running procedure, or nil when it is complete (then call `endProcedure`).
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public mutating func nextStep() -> PlannedStep? {
        guard run?.inProcedure == true else { return nil }
        return planner?.nextStep()
    }

    /// When `step` starts on the controller clock.
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public func startTime(of step: PlannedStep) -> UInt64 {
        (run?.procedureStart ?? 0) + UInt64(step.startMicroseconds)
    }

    /// Runs a whole step on the radio and records its result (a board's controller, and the
    /// reflector in the loopback).
    public mutating func run<Radio: RadioPort>(_ step: PlannedStep, radio: inout Radio) {
        guard let engine = run?.engine else { return }
        if engine.role == .initiator {
            transmit(step, radio: &radio)
            receive(step, radio: &radio)
        } else {
            record(engine.run(step, at: startTime(of: step), radio: &radio), of: step)
        }
    }

    /// The initiator's transmissions of a step (the loopback interleaves them with the reflector's step).
    public func transmit<Radio: RadioPort>(_ step: PlannedStep, radio: inout Radio) {
        run?.engine.transmit(step, at: startTime(of: step), radio: &radio)
    }

    /// The initiator's measurements of a step; records the result, and after a mode-0 step moves
    /// the radio's carrier towards the offset it measured (the frequency compensation the results report).
    public mutating func receive<Radio: RadioPort>(_ step: PlannedStep, radio: inout Radio) {
        guard let engine = run?.engine else { return }
        let result = engine.receive(step, at: startTime(of: step), radio: &radio)
        if case .mode0(let m) = result.data, let offset = m.frequencyOffsetHundredthsPPM {
            // The n-th measurement of the procedure moves the carrier by 1/n of the residual it
            // saw: the compensation is the running mean of the measurements, so one noisy
            // measurement does not become a phase slope common to every antenna path that follows.
            let n = (run?.frequencyMeasurements ?? 0) + 1
            run?.frequencyMeasurements = n
            let ppm = Float(offset) / 100 / Float(n)
            radio.compensateFrequency(ppm: ppm)
            run?.compensationPPM += ppm
        }
        record(result, of: step)
    }

    /// Adds a step's result to its subevent, reporting the previous subevent when this one is new.
    mutating func record(_ result: SubeventStep, of step: PlannedStep) {
        guard let subevent = run?.subevent else { return }
        if step.subevent != subevent {
            reportSubevent(procedureDone: false)
            run?.subevent = step.subevent
        }
        run?.steps.append(result)
    }

    /// Ends the running procedure: reports its last subevent with Procedure_Done_Status
    /// "complete", and counts it towards Max_Procedure_Count.
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public mutating func endProcedure() {
        guard run?.inProcedure == true else { return }
        // A classification that leaves fewer than 15 channels aborts the procedure (reason 0x2).
        let aborted = planner?.hasSufficientChannels == false
        reportSubevent(procedureDone: true, abort: aborted ? AbortReasons(procedure: .insufficientChannels, subevent: .none) : nil)
        run?.finishProcedure()
    }

    /// Sends the gathered subevent as one LE CS Subevent Result plus Continue events.
    mutating func reportSubevent(procedureDone: Bool, abort: AbortReasons? = nil) {
        guard let r = run else { return }
        // The initiator reports the compensation it applied in 0.01 ppm (15-bit signed); the
        // reflector always reports "not available" (Vol 4 Part E §7.7.65.44).
        var compensation: UInt16 = 0xC000
        if r.role == .initiator, r.compensationPPM.magnitude <= 100 {
            compensation = UInt16(bitPattern: Int16((r.compensationPPM * 100).rounded())) & 0x7FFF
        }
        let result = LECSSubeventResult(
            connectionHandle: connection.handle, configID: r.configID,
            startACLConnectionEventCounter: r.procedureEvent &+ UInt16(r.subevent) &* r.eventInterval,
            procedureCounter: r.procedureCounter, frequencyCompensation: compensation,
            referencePowerLevel: r.referencePowerLevel,
            procedureDoneStatus: abort != nil ? .aborted : procedureDone ? .complete : .partial,
            subeventDoneStatus: abort != nil ? .aborted : .complete, abortReasons: abort ?? .none,
            numAntennaPaths: UInt8(r.engine.antennaPaths), steps: r.steps)
        run?.steps.removeAll(keepingCapacity: true)
        for event in result.splitIntoEvents() {
            switch event {
            case .result(let e): sendLEMeta(code: LECSSubeventResult.subeventCode, body: e.encode())
            case .continuation(let e): sendLEMeta(code: LECSSubeventResultContinue.subeventCode, body: e.encode())
            }
        }
    }
}
