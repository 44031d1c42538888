/// Starting and stopping procedures: LE CS Procedure Enable, the CS start procedure
/// (LL_CS_REQ, LL_CS_RSP from the peripheral, LL_CS_IND from the central; `CSStartProcedure`)
/// and the CS procedure repeat termination (`CSTerminateProcedure`) (Core 6.0 Vol 6 Part B
/// §5.1.27–§5.1.28; Vol 4 Part E §7.8.141, §7.7.65.43).
///
/// Scheduling choices, the controller's to make: one subevent per connection event
/// (Subevents_Per_Event 1, Subevent_Interval 0), Subevent_Len the host's Max_Subevent_Len,
/// Event_Interval the fewest connection events that hold a subevent, Procedure_Interval the
/// host's minimum unless Max_Procedure_Len needs more events, and the first procedure four
/// connection events after the request, 500 µs after the anchor point.
extension CSController {
    mutating func enableProcedures(_ op: UInt16, _ c: LECSProcedureEnable) {
        let id = Int(c.configID)
        guard c.configID < 4 else { return commandStatus(op, .invalidHCICommandParameters) }
        if !c.enable {
            guard let completed = run?.completed, run?.configID == c.configID, !llProcedures.terminate.isBusy else { return commandStatus(op, .commandDisallowed) }
            commandStatus(op, .success)
            llProcedures.terminate.start(configID: c.configID, at: now)
            pdus.append(LLControlPDU.csTerminateReq(LLCSTerminateReq(configID: c.configID, procedureCount: UInt16(truncatingIfNeeded: completed))).encode())
            return
        }
        // One start at a time, and none beside a configuration procedure (they collide, §5.3).
        guard run == nil, !llProcedures.start.isInProgress, !llProcedures.configuration.isBusy else { return commandStatus(op, .commandDisallowed) }
        guard let config = configurations[id], let p = procedureParameters[id] else { return commandStatus(op, .commandDisallowed) }
        guard drbg != nil else { return commandStatus(op, .insufficientSecurity) }
        guard defaultSettings.allows(config.role) else { return commandStatus(op, .commandDisallowed) }
        guard FilteredChannels(map: config.channelMap, classification: channelClassification).isSufficient else {
            return commandStatus(op, .insufficientChannels)
        }
        commandStatus(op, .success)
        let interval = connection.intervalMicroseconds
        let eventInterval = UInt16(max(1, (p.maxSubeventLength + interval - 1) / interval))
        let needed = UInt16(min(UInt32(UInt16.max), (p.maxProcedureLengthMicroseconds + interval - 1) / interval))
        let req = LLCSReq(
            configID: c.configID, connEventCount: connection.eventCounter &+ 4, offsetMin: 500, offsetMax: min(interval - 1, 4000),
            maxProcedureLength: p.maxProcedureLength, eventInterval: eventInterval, subeventsPerEvent: 1, subeventInterval: 0,
            subeventLength: p.maxSubeventLength, procedureInterval: max(p.minProcedureInterval, needed),
            procedureCount: p.maxProcedureCount, aci: p.antennaConfiguration.index, preferredPeerAntenna: p.preferredPeerAntenna,
            phy: p.phy, powerDelta: p.txPowerDelta ?? Int8(bitPattern: 0x80),
            txSNRInitiator: p.snrControlInitiator ?? 0x0F, txSNRReflector: p.snrControlReflector ?? 0x0F)
        llProcedures.start.start(req, at: now)
        pdus.append(LLControlPDU.csReq(req).encode())
    }

    /// The peer asks to start procedures (collisions are settled before): check, then answer
    /// (peripheral: LL_CS_RSP, and wait for LL_CS_IND; central: LL_CS_IND, and the procedures
    /// are agreed).
    mutating func receiveProcedureRequest(_ req: LLCSReq) {
        let op = LLControlOpcode.csReq.rawValue
        guard req.configID < 4, let config = configurations[Int(req.configID)] else { return reject(op, .invalidLMPOrLLParameters) }
        guard run == nil else { return reject(op, .commandDisallowed) }
        guard drbg != nil else { return reject(op, .insufficientSecurity) }
        guard defaultSettings.allows(config.role) else { return reject(op, .commandDisallowed) }
        guard let aci = AntennaConfiguration(index: req.aci), aci.antennaPaths <= Int(localCapabilities.maxAntennaPaths),
            (config.role == .initiator ? aci.initiatorAntennas : aci.reflectorAntennas) <= Int(localCapabilities.numAntennas)
        else { return reject(op, .unsupportedLMPOrLLParameterValue) }
        guard FilteredChannels(map: config.channelMap, classification: channelClassification).isSufficient else {
            return reject(op, .insufficientChannels)
        }
        if connection.isCentral {
            sendIndication(for: req, offset: req.offsetMin, eventCount: req.connEventCount)
        } else {
            llProcedures.start.answered(req, at: now)
            pdus.append(LLCSRsp(configID: req.configID, connEventCount: req.connEventCount, offsetMin: req.offsetMin,
                                offsetMax: req.offsetMax, schedule: req.schedule).encode())
        }
    }

    /// The peripheral accepted the central's request: the central fixes the schedule.
    mutating func receiveProcedureResponse(_ rsp: LLCSRsp) {
        guard connection.isCentral, let req = llProcedures.start.responded(configID: rsp.configID) else { return }
        sendIndication(for: req, offset: max(rsp.offsetMin, req.offsetMin), eventCount: rsp.connEventCount)
    }

    /// The central's LL_CS_IND, for its request or ours: procedures are agreed on both sides.
    mutating func receiveProcedureIndication(_ ind: LLCSInd) {
        guard !connection.isCentral, let req = llProcedures.start.indicated(configID: ind.configID) else { return }
        startProcedures(req, eventCount: ind.connEventCount, offset: ind.offset)
    }

    mutating func sendIndication(for req: LLCSReq, offset: UInt32, eventCount: UInt16) {
        pdus.append(LLCSInd(configID: req.configID, connEventCount: eventCount, offset: offset, schedule: req.schedule).encode())
        startProcedures(req, eventCount: eventCount, offset: offset)
    }

    /// The time of connection event `eventCount` on the controller's 64-bit clock. LL PDUs name
    /// an instant by the event counter's 16 bits (Core 6.0 Vol 6 Part B §5.5.1), which wrap
    /// every 65,536 events (8 minutes at 7.5 ms): the instant is the event within 32,767 events
    /// of the current one, not the counter times the interval, which after a wrap put the first
    /// procedure minutes in the past and had a board run every procedure since back to back.
    func eventTime(_ eventCount: UInt16) -> UInt64 {
        let interval = UInt64(max(connection.intervalMicroseconds, 1))
        let current = now / interval
        let ahead = Int64(Int16(bitPattern: eventCount &- UInt16(truncatingIfNeeded: current)))
        return UInt64(max(0, Int64(current) + ahead)) * interval
    }

    /// Sets up the run both controllers share and tells the host (LE CS Procedure Enable Complete).
    mutating func startProcedures(_ req: LLCSReq, eventCount: UInt16, offset: UInt32) {
        guard var config = configurations[Int(req.configID)], let drbg, let aci = AntennaConfiguration(index: req.aci) else { return }
        let remote = remoteCapabilities ?? localCapabilities
        let initiator = config.role == .initiator ? localCapabilities : remote
        let reflector = config.role == .initiator ? remote : localCapabilities
        config.timing.tSW = CSTiming.antennaSwitchTime(antennaConfiguration: aci, initiator: initiator, reflector: reflector, inlinePCT: config.inlinePCT)
        let interval = connection.intervalMicroseconds
        let schedule = ProcedureSchedule(subeventLength: req.subeventLength, subeventInterval: UInt32(req.eventInterval) * interval,
                                         maxProcedureLength: UInt32(req.maxProcedureLength) * 625)
        planner = ProcedurePlanner(configuration: config, schedule: schedule, antennaPaths: aci.antennaPaths, drbg: drbg,
                                   policy: leftoverBitPolicy, classification: channelClassification, lastProcedureCounter: lastProcedureCounter)
        let engine = CSStepEngine(configuration: config, antennaConfiguration: aci, syncAntenna: defaultSettings.syncAntenna)
        let firstStart = eventTime(eventCount) + UInt64(offset)
        run = ProcedureRun(engine: engine, configID: req.configID, procedureCount: req.procedureCount,
                           procedureIntervalEvents: req.procedureInterval, eventInterval: req.eventInterval,
                           connectionInterval: interval, referencePowerLevel: selectedTxPower, firstStart: firstStart, firstEvent: eventCount)
        sendLEMeta(code: LECSProcedureEnableComplete.subeventCode, body: LECSProcedureEnableComplete(
            connectionHandle: connection.handle, configID: req.configID, enabled: true, antennaConfigurationIndex: req.aci,
            selectedTxPower: selectedTxPower, subeventLength: req.subeventLength, subeventsPerEvent: req.subeventsPerEvent,
            subeventInterval: req.subeventInterval, eventInterval: req.eventInterval, procedureInterval: req.procedureInterval,
            procedureCount: req.procedureCount, maxProcedureLength: req.maxProcedureLength).encode())
    }

    /// The peer stops the procedures (LL_CS_TERMINATE_REQ): answer, then stop.
    mutating func receiveTerminateRequest(_ req: LLCSTerminateReq) {
        let completed = UInt16(truncatingIfNeeded: run?.completed ?? 0)
        pdus.append(LLControlPDU.csTerminateRsp(LLCSTerminateRsp(configID: req.configID, procedureCount: completed)).encode())
        stopProcedures(configID: req.configID)
    }

    /// Ends the run (terminate procedure or host disable); the DRBG and counter carry on.
    mutating func stopProcedures(configID: UInt8) {
        guard let r = run, r.configID == configID else { return }
        if r.inProcedure { endProcedure() }
        if let p = planner, p.hasBegun {
            drbg = p.bits.drbg
            lastProcedureCounter = p.procedureCounter
        }
        run = nil
        planner = nil
        sendProcedureEnableComplete(status: .success, configID: configID, enabled: false)
    }

    mutating func sendProcedureEnableComplete(status: HCIStatus, configID: UInt8, enabled: Bool) {
        sendLEMeta(code: LECSProcedureEnableComplete.subeventCode, body: LECSProcedureEnableComplete(
            status: status, connectionHandle: connection.handle, configID: configID, enabled: enabled, antennaConfigurationIndex: 0,
            selectedTxPower: 0, subeventLength: 0, subeventsPerEvent: 0, subeventInterval: 0, eventInterval: 0, procedureInterval: 0,
            procedureCount: 0, maxProcedureLength: 0).encode())
    }

    /// The transmit power the controller uses: the host's cap, at most the radio's 0 dBm.
    var selectedTxPower: Int8 { min(defaultSettings.maxTxPower, 0) }
}
