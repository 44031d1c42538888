import ReflectorFirmware

/// The phone's Bluetooth host for Channel Sounding, over one `HostCore`: the controller's
/// set-up (`ControllerSetup`), then the connection's CS as named steps (`InitiatorSetupStep`:
/// scanning and connecting when asked, encryption, capabilities, security, configuration,
/// procedure parameters, enable), then the controller's events turned into whole procedures.
/// It only ever sees HCI packets, so the same host drives the emulated controller in process
/// and a real board over a serial port; `PhoneHost` puts SMP and the RAS client beside it.
public struct InitiatorHost: Sendable {
    /// What the host wants: the configuration (role initiator) and procedure parameters.
    public struct Setup: Sendable, Equatable {
        /// The connection's handle; with `connect` set, the handle comes from LE Connection Complete.
        public var connectionHandle: UInt16
        /// Connect first (LE Create Connection to this peer, then LE Enable Encryption with this
        /// bond's key): for a controller that has no connection yet, such as a board on a serial port.
        public var connect: ConnectionPlan?
        public var configuration: CSConfiguration
        public var parameters: ProcedureParameters
        /// Refuse accessories that do not meet iOS's requirements, as an iPhone does.
        public var requireIOSCompliance: Bool
        /// Ask for inline PCT only when the reflector supports it (CS subfeature bit 4), else
        /// create the configuration without it: the reflector's results then come over RAS.
        /// (An iPhone refuses such a reflector instead: `requireIOSCompliance`.)
        public var inlinePCTOnlyIfSupported = false
        /// Without inline PCT, hold LE CS Procedure Enable until `rangingDataClientReady()`:
        /// the phone's RAS client must be subscribed before procedures start, or the
        /// reflector's data for them is lost (a host on a real link; in loopback the RAS
        /// notifications need no subscription).
        public var waitsForRangingDataClient = false

        public init(connectionHandle: UInt16, configuration: CSConfiguration, parameters: ProcedureParameters, requireIOSCompliance: Bool = true,
                    connect: ConnectionPlan? = nil) {
            self.connectionHandle = connectionHandle
            self.connect = connect
            var c = configuration
            c.role = .initiator
            self.configuration = c
            self.parameters = parameters
            self.requireIOSCompliance = requireIOSCompliance
        }
    }

    /// Which peer to connect to and the bond's long-term key (16 octets as HCI carries them):
    /// a known address, or, with `scan`, the first connectable advertiser that `scan` accepts.
    public struct ConnectionPlan: Sendable, Equatable {
        public var peerAddress: UInt64
        public var peerAddressIsRandom: Bool
        public var longTermKey: [UInt8]
        public var scan: AdvertiserFilter?

        public init(peerAddress: UInt64, peerAddressIsRandom: Bool = false, longTermKey: [UInt8]) {
            self.peerAddress = peerAddress
            self.peerAddressIsRandom = peerAddressIsRandom
            self.longTermKey = longTermKey
        }

        /// Scan (actively) and connect to the first connectable advertiser `filter` accepts.
        public init(scanningFor filter: AdvertiserFilter, longTermKey: [UInt8]) {
            self.init(peerAddress: 0, longTermKey: longTermKey)
            scan = filter
        }
    }

    /// What handling an event produced.
    public enum Output: Sendable, Equatable {
        /// The link to the peer came up (a connection this host made).
        case connected(PairingAddress)
        /// The reflector lacks what an iPhone requires (reported when it is ranged all the same).
        case notIOSCompliant([IOSRequirement])
        /// Procedures are enabled with these parameters.
        case enabled(LECSProcedureEnableComplete)
        /// A whole procedure: the initiator's results and, without inline PCT, the reflector's
        /// step data from RAS (paired with the initiator's steps by order).
        case procedure(ProcedureResults, reflectorSteps: [StepData?]?)
        /// The configuration has no inline PCT and procedures wait for the phone's RAS client
        /// (`Setup.waitsForRangingDataClient`): subscribe, then `rangingDataClientReady()`.
        case needsRangingData
        /// Procedures stopped (disabled by either side).
        case disabled
        /// A procedure that was under way when the link or the controller went: it gives no distance.
        case procedureLost(counter: UInt16)
        /// `count` procedures from counter `first` that the controller reported nothing of (lost
        /// on the line, or by a board that went silent): the next procedure's counter skipped them.
        case proceduresMissed(first: UInt16, count: Int)
        /// Set-up or ranging failed; the host stops.
        case failed(HostError)
        /// The controller departed from the spec in a way the host tolerates (said once).
        case deviation(ControllerDeviation)
    }

    public private(set) var setup: Setup
    /// The core every component of the phone shares (its scheduler, controller facts, link).
    public internal(set) var core = HostCore()
    private var controllerSetup = ControllerSetup()
    public private(set) var localCapabilities: CSCapabilities?
    public private(set) var remoteCapabilities: CSCapabilities?
    /// The peer's Bluetooth version (LL VersNr) from Read Remote Version Information.
    public private(set) var remoteVersion: UInt8?
    /// The configuration as the controllers agreed it (with the selected times).
    public private(set) var agreedConfiguration: CSConfiguration?
    public private(set) var enableComplete: LECSProcedureEnableComplete?
    public private(set) var failure: HostError?
    /// The controller's LE ACL buffers, from LE Read Buffer Size (until then the LE minimum).
    public var aclBuffers: (length: Int, count: Int) { (core.controller.aclBuffers.length, core.controller.aclBuffers.count) }
    /// The controller's public address (Read BD_ADDR), which pairing names as this side's.
    public var localAddress: UInt64? { core.controller.localAddress }

    /// The step under way (its command sent or its event awaited), and the one after it.
    public private(set) var step: InitiatorSetupStep?
    private var nextStep: InitiatorSetupStep? = .scan
    /// The event the current step waits for, once its commands were answered.
    private var awaiting: InitiatorSetupStep.Awaited?
    /// Commands of the current step not yet answered, by opcode.
    private var pendingCommands: [UInt16] = []
    /// What a step gave while it was being sent (a command the board does not list), for the next `tick`.
    private var deferred: [Output] = []
    private var assembler = ProcedureAssembler(role: .initiator)
    /// The procedures the controller reported since they were enabled (a skip is named).
    private var procedureSequence = ProcedureSequence()
    /// Without inline PCT: the initiator's procedures joined with the reflector's RAS data.
    private var rangingData = RangingDataJoin()

    /// Whether the procedures use inline PCT transfer (the reflector's PCTs are then not needed).
    public var usesInlinePCT: Bool { agreedConfiguration?.inlinePCT ?? configuration.inlinePCT }
    /// Whether procedures wait for the reflector's results (RAS): without inline PCT, or for
    /// round-trip timing.
    public var needsReflectorResults: Bool { (agreedConfiguration ?? configuration).needsReflectorResults }

    /// The configuration to create: the set-up's, without inline PCT when it is asked for only
    /// if supported and the reflector does not support it.
    public var configuration: CSConfiguration {
        var c = setup.configuration
        if setup.inlinePCTOnlyIfSupported, let r = remoteCapabilities, !r.supportsInlinePCT { c.inlinePCT = false }
        return c
    }
    /// Encryption waits for `encrypt(with:)` (a plan without a bond key), and the key given.
    private var holdsForEncryptionKey = false
    private var encryptionKey: [UInt8]?

    /// The LTK to encrypt the link with, from pairing or a bond: LE Enable Encryption (EDIV 0, Rand 0).
    public mutating func encrypt(with key: [UInt8]) {
        encryptionKey = key
        guard holdsForEncryptionKey else { return }
        holdsForEncryptionKey = false
        send(CentralCommands.enableEncryption(handle: handle, key: key), awaiting: .encryption)
    }

    /// Procedure Enable waits for `rangingDataClientReady()`.
    private var holdsForRangingData = false
    private var rangingDataClientIsReady = false

    /// The phone's RAS client is subscribed: procedures may start.
    public mutating func rangingDataClientReady() {
        rangingDataClientIsReady = true
        holdsForRangingData = false
    }

    /// The connection handle in use (from LE Connection Complete when the host connected).
    public private(set) var handle: UInt16

    public init(setup: Setup) {
        self.setup = setup
        handle = setup.connectionHandle
        _ = controllerSetup.advance(&core)
    }

    /// Procedures begun and not delivered: one whose last subevent has not come, and, without
    /// inline PCT, those waiting for the reflector's RAS data.
    public var proceduresInFlight: [UInt16] {
        (assembler.pendingCounter.map { [$0] } ?? []) + rangingData.waitingCounters
    }

    /// Whether procedures are running.
    public var isRanging: Bool { enableComplete != nil && failure == nil }

    /// The command sent and not yet answered (Command Complete or Status), if any: a board
    /// that stays silent on it has gone away.
    public var unansweredOpcode: UInt16? { core.scheduler.outstanding?.opcode }

    /// The event the host waits for before its next command, by name.
    public var awaitedEvent: String? {
        if holdsForRangingData { return "the RAS subscription (the reflector's Ranging Service)" }
        if holdsForEncryptionKey { return "pairing (LE Secure Connections)" }
        return pendingCommands.isEmpty ? awaiting?.name : nil
    }

    /// Whether the host is looking for its peer (scanning for an advertiser its plan accepts).
    public var isScanning: Bool { awaiting == .advertiser }

    /// The next command packet to send (opcode, length, parameters), if the host has one and the
    /// previous one was answered.
    public mutating func nextCommand() -> [UInt8]? {
        nextPacket()?.encode()
    }

    /// The next command, as a packet.
    public mutating func nextPacket() -> HCIPacket? {
        advance()
        return core.nextCommand()
    }

    /// Stops ranging: LE CS Procedure Enable with Enable = 0.
    public mutating func stop() {
        guard enableComplete != nil else { return }
        step = .enableProcedures
        send(LECSProcedureEnable(connectionHandle: handle, configID: setup.configuration.configID, enable: false).packet, awaiting: .proceduresEnabled)
    }

    /// After LE CS Procedure Enable Complete reported a failure, tries LE CS Procedure Enable
    /// again: a reflector whose host has not allowed its role yet (LE CS Set Default Settings
    /// comes on its own schedule) refuses the start, and a later try succeeds. Returns false
    /// (and does nothing) when the host failed at any other step.
    @discardableResult
    public mutating func retryProcedureEnable() -> Bool {
        guard case .procedureFailed(event: .proceduresEnabled, _)? = failure else { return false }
        failure = nil
        awaiting = nil
        step = nil
        nextStep = .enableProcedures
        return true
    }

    /// Starts procedures again after `stop()` has completed (`.disabled`), with new procedure
    /// parameters: LE CS Set Procedure Parameters, which the controller takes only while
    /// procedures are disabled (Core 6.0 Vol 4 Part E §7.8.140), then LE CS Procedure Enable.
    /// The configuration, security and capabilities exchanged at set-up still hold. This is how
    /// a phone pauses ranging in the background and changes the procedure rate. Returns false
    /// (and does nothing) while procedures run, before set-up finished, or after a failure.
    @discardableResult
    public mutating func restart(parameters: ProcedureParameters) -> Bool {
        guard enableComplete == nil, awaiting == nil, pendingCommands.isEmpty, failure == nil, step == nil, nextStep == nil else { return false }
        setup.parameters = parameters
        nextStep = .setProcedureParameters
        return true
    }

    /// Handles one HCI event packet (no H4 indicator).
    public mutating func handleEvent(_ bytes: some Collection<UInt8>) -> [Output] {
        let packet: HCIPacket
        do { packet = try HCIPacket(event: bytes) } catch { return fail(.malformedEvent("\(error)")) }
        return receive(packet, now: core.now).outputs
    }

    /// What sending the last step gave (a command the board does not list fails the step): a
    /// loop calls this every turn, so no failure waits silently.
    public mutating func tick() -> [Output] {
        defer { deferred = [] }
        return deferred
    }

    /// One event packet from the controller at `now`: the event as the core decoded it (for
    /// the components beside this host) and what it gave.
    public mutating func receive(_ packet: HCIPacket, now: Double) -> (event: HostEvent, outputs: [Output]) {
        let event = core.receive(packet, now: now)
        var outputs = handle(event)
        if case .malformed = event, case .failed(.malformedEvent(let what))? = outputs.last {
            outputs[outputs.count - 1] = .failed(.malformedEvent(what + "; its octets: " + ControllerDeviation.octets(packet)))
        }
        // An undecodable event is reported by the failure it causes (or dropped, if droppable).
        let deviations = core.takeDeviations().filter { if case .undecodableEvent = $0 { false } else { true } }
        return (event, deviations.map { .deviation($0) } + outputs)
    }

    private mutating func handle(_ event: HostEvent) -> [Output] {
        for o in controllerSetup.handle(event, &core) {
            switch o {
            case .ready:
                if let why = controllerSetup.channelSoundingUnavailable { return fail(.channelSoundingUnavailable(why)) }
            case let .refused(step, status): return fail(.commandFailed(command: "\(step.name)", status: status))
            }
        }
        switch event {
        case .commandAnswered(let answer):
            guard controllerSetup.isDone, let i = pendingCommands.firstIndex(of: answer.opcode) else { return [] }
            guard answer.status == .success else { return fail(.commandFailed(command: HCICommandNames.name(answer.opcode), status: answer.status)) }
            pendingCommands.remove(at: i)
            if answer.opcode == LECSReadLocalSupportedCapabilitiesV2.opcode || answer.opcode == LECSReadLocalSupportedCapabilities.opcode {
                let v2 = answer.opcode == LECSReadLocalSupportedCapabilitiesV2.opcode
                localCapabilities = (try? LECSLocalCapabilitiesReturn.decode(answer.returnParameters, v2: v2))?.capabilities
            }
            if pendingCommands.isEmpty, awaiting == nil { step = nil }
            return []
        case .malformed(let name, let error):
            // A report or credit event that does not decode is dropped; one the set-up or ranging needs ends it.
            guard !HostEvent.isDroppable(name) else { return [] }
            return fail(.malformedEvent("\(name): \(error)"))
        case .advertisingReport(let e):
            guard awaiting == .advertiser, let filter = setup.connect?.scan else { return [] }
            // ADV_IND (0) and ADV_DIRECT_IND (1) are connectable; a scan response (4) may carry the name.
            for r in e.reports where (r.eventType <= 1 || r.eventType == 4 && filter.needsScanResponse) && filter.accepts(address: r.address, r.data) {
                setup.connect?.peerAddress = r.address
                setup.connect?.peerAddressIsRandom = r.addressType.isRandom
                return finishAwait(.advertiser)
            }
            return []
        case .connected(let c):
            guard awaiting == .connection else { return [] }
            guard c.status == .success else { return fail(.procedureFailed(event: .connection, status: c.status)) }
            handle = c.handle
            return [.connected(c.peer)] + finishAwait(.connection)
        case let .encryptionChanged(h, status, enabled):
            guard h == handle, awaiting == .encryption else { return [] }
            guard enabled else { return fail(.procedureFailed(event: .encryption, status: status == .success ? .pinOrKeyMissing : status)) }
            return finishAwait(.encryption)
        case .disconnected(let h, let reason):
            guard failure == nil, h == handle else { return [] }
            return fail(.linkLost(reason))
        case .hardwareError(let code):
            return fail(.controllerFault(.hardwareError(code: code)))
        case .remoteVersion(let e):
            guard awaiting == .remoteVersion else { return [] }
            guard e.status == .success else { return fail(.procedureFailed(event: .remoteVersion, status: e.status)) }
            remoteVersion = e.version
            return finishAwait(.remoteVersion)
        case .csRemoteCapabilities(let e):
            guard e.status == .success else { return fail(.procedureFailed(event: .remoteCapabilities, status: e.status)) }
            remoteCapabilities = e.capabilities
            guard awaiting == .remoteCapabilities else { return [] }
            let report = IOSComplianceReport(capabilities: e.capabilities, bluetoothVersion: remoteVersion ?? 0)
            if !report.isCompliant {
                if setup.requireIOSCompliance { return fail(.accessoryNotSupported(report.unmet)) }
                return [.notIOSCompliant(report.unmet)] + finishAwait(.remoteCapabilities)
            }
            return finishAwait(.remoteCapabilities)
        case .csSecurityEnabled(let e):
            guard e.status == .success else { return fail(.procedureFailed(event: .securityEnabled, status: e.status)) }
            return finishAwait(.securityEnabled)
        case .csConfigured(let e):
            guard e.status == .success else { return fail(.procedureFailed(event: .configCreated, status: e.status)) }
            if let c = e.configuration { agreedConfiguration = c }
            let outputs = finishAwait(.configCreated)
            guard needsReflectorResults, setup.waitsForRangingDataClient, !rangingDataClientIsReady else { return outputs }
            holdsForRangingData = true
            return outputs + [.needsRangingData]
        case .csProceduresEnabled(let e):
            guard e.status == .success else { return fail(.procedureFailed(event: .proceduresEnabled, status: e.status)) }
            _ = finishAwait(.proceduresEnabled)
            if e.enabled {
                enableComplete = e
                procedureSequence.restart()
                return [.enabled(e)]
            }
            enableComplete = nil
            return [.disabled]
        case .csSubeventResult(let packet):
            return subeventResult(packet)
        default:
            return []
        }
    }

    /// One LE CS Subevent Result or Continue: a procedure when its last subevent came (only
    /// once this host has enabled procedures). A continuation whose start was lost (a restarted board, octets lost on the line) loses that
    /// procedure and the link goes on; an event that does not decode is the board's fault.
    private mutating func subeventResult(_ packet: HCIPacket) -> [Output] {
        // Results before this host enabled procedures are a board's from before its Reset (a
        // restarted host whose Reset is not answered yet: a silent board catching up): not ours.
        guard enableComplete != nil else { return [] }
        var failure: ProcedureAssemblyError?
        var delivered: ProcedureResults?
        do { delivered = try assembler.add(packet) } catch { failure = error }
        if let p = delivered {
            let missed = missedBefore(p.procedureCounter)
            if procedureSequence.lastRepeated { core.note(.repeatedProcedureCounter(p.procedureCounter)) }
            return missed + core.takeDeviations().map { .deviation($0) } + deliver(p)
        }
        guard let failure else { return [] }
        if case .malformed = failure { return [.failed(.malformedEvent("CS Subevent Result: \(failure)"))] }
        guard let lost = lostPartialProcedure() else { return [] }
        return missedBefore(lost) + [.procedureLost(counter: lost)]
    }

    /// The procedures the controller skipped before `counter`, named.
    private mutating func missedBefore(_ counter: UInt16) -> [Output] {
        procedureSequence.reported(counter).map { [.proceduresMissed(first: $0.first, count: $0.count)] } ?? []
    }

    /// Forgets the procedure being assembled (its counter, if there was one).
    private mutating func lostPartialProcedure() -> UInt16? {
        let counter = assembler.pendingCounter
        assembler = ProcedureAssembler(role: .initiator)
        return counter
    }

    /// One notification of the reflector's Real-time Ranging Data characteristic (RAS): the
    /// segments of a procedure's ranging data, reassembled and paired with the initiator's own
    /// results by ranging counter.
    public mutating func receiveRangingData(_ segment: some Collection<UInt8>) -> [Output] {
        guard let paths = agreedAntennaPaths, let joined = rangingData.segment(segment, antennaPaths: paths) else { return [] }
        return [.procedure(joined.results, reflectorSteps: joined.reflectorSteps)]
    }

    private var agreedAntennaPaths: Int? { enableComplete?.antennaConfiguration?.antennaPaths }

    private mutating func deliver(_ p: ProcedureResults) -> [Output] {
        if !needsReflectorResults { return [.procedure(p, reflectorSteps: nil)] }
        guard let joined = rangingData.procedure(p) else { return [] }
        return [.procedure(joined.results, reflectorSteps: joined.reflectorSteps)]
    }

    // MARK: Set-up steps

    /// Starts the next step once the current one is through (its commands answered and its
    /// event arrived); steps that do not apply (connecting, when already connected) are skipped.
    private mutating func advance() {
        guard controllerSetup.isDone, failure == nil, !holdsForRangingData, !holdsForEncryptionKey else { return }
        while step == nil, let s = nextStep {
            nextStep = s.next
            if start(s) { step = s }
        }
    }

    /// Sends a step's commands; false when it does not apply.
    private mutating func start(_ s: InitiatorSetupStep) -> Bool {
        let h = handle
        switch s {
        case .scan:
            guard setup.connect?.scan != nil else { return false }
            send(LESetScanParameters(active: true, interval: 0x0060, window: 0x0060, ownAddressType: .public, filterPolicy: 0).packet)
            send(LESetScanEnable(enable: true, filterDuplicates: false).packet, awaiting: .advertiser)
        case .connect:
            guard let plan = setup.connect else { return false }
            if plan.scan != nil { send(LESetScanEnable(enable: false, filterDuplicates: false).packet) }
            send(CentralCommands.createConnection(plan), awaiting: .connection)
        case .encrypt:
            guard let plan = setup.connect else { return false }
            // No bond key: the key comes from pairing (or a bond the caller holds), `encrypt(with:)`.
            guard let key = plan.longTermKey.isEmpty ? encryptionKey : plan.longTermKey else {
                holdsForEncryptionKey = true
                return true
            }
            send(CentralCommands.enableEncryption(handle: h, key: key), awaiting: .encryption)
        case .readLocalCapabilities:
            // The Core 6.3 form where the controller lists it, else Core 6.0's (said once).
            if core.scheduler.lists(LECSReadLocalSupportedCapabilitiesV2.opcode) {
                send(LECSReadLocalSupportedCapabilitiesV2().packet)
            } else {
                core.note(.capabilitiesWithoutV2)
                deferred += core.takeDeviations().map { .deviation($0) }
                send(LECSReadLocalSupportedCapabilities().packet)
            }
        case .readRemoteVersion: send(ReadRemoteVersionInformation(connectionHandle: h).packet, awaiting: .remoteVersion)
        case .readRemoteCapabilities: send(LECSReadRemoteSupportedCapabilities(connectionHandle: h).packet, awaiting: .remoteCapabilities)
        case .enableSecurity: send(LECSSecurityEnable(connectionHandle: h).packet, awaiting: .securityEnabled)
        case .setDefaultSettings:
            send(LECSSetDefaultSettings(connectionHandle: h, initiatorEnabled: true, reflectorEnabled: false, csSyncAntennaSelection: 0x01, maxTxPower: 20).packet)
        case .createConfig: send(LECSCreateConfig(connectionHandle: h, createContext: .localAndRemote, configuration: configuration).packet, awaiting: .configCreated)
        case .setProcedureParameters:
            send(LECSSetProcedureParameters(connectionHandle: h, configID: setup.configuration.configID, parameters: setup.parameters).packet)
        case .enableProcedures:
            send(LECSProcedureEnable(connectionHandle: h, configID: setup.configuration.configID, enable: true).packet, awaiting: .proceduresEnabled)
        }
        return true
    }

    /// Queues one command of the current step (and, with `awaiting`, the event it starts).
    private mutating func send(_ packet: HCIPacket, awaiting event: InitiatorSetupStep.Awaited? = nil) {
        guard let opcode = packet.opcode else { return }
        guard core.scheduler.enqueue(packet) else {
            deferred += fail(.commandFailed(command: HCICommandNames.name(opcode) + " (the board does not list it among its supported commands)", status: .unknownCommand))
            return
        }
        pendingCommands.append(opcode)
        if let event { awaiting = event }
    }

    /// The awaited event arrived: the step is through once its commands are answered too.
    private mutating func finishAwait(_ event: InitiatorSetupStep.Awaited) -> [Output] {
        guard awaiting == event else { return [] }
        awaiting = nil
        if pendingCommands.isEmpty { step = nil }
        return []
    }

    private mutating func fail(_ error: HostError) -> [Output] {
        failure = error
        core.scheduler.clear()
        pendingCommands = []
        awaiting = nil
        step = nil
        nextStep = nil
        return [.failed(error)]
    }
}
