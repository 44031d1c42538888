import ReflectorFirmware

/// The phone's Bluetooth host for Channel Sounding: it sets up its controller and the
/// connection's CS (capabilities, security, configuration, procedure parameters) and then
/// turns the controller's events into whole procedures. It only ever sees HCI packets as bytes
/// (`nextCommand`, `handleEvent`), so the same host drives the emulated controller in process
/// and a real board over a serial port.
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
        /// Set-up or ranging failed; the host stops.
        case failed(HostError)
    }

    public private(set) var setup: Setup
    public private(set) var localCapabilities: CSCapabilities?
    public private(set) var remoteCapabilities: CSCapabilities?
    /// The peer's Bluetooth version (LL VersNr) from Read Remote Version Information.
    public private(set) var remoteVersion: UInt8?
    /// The configuration as the controllers agreed it (with the selected times).
    public private(set) var agreedConfiguration: CSConfiguration?
    public private(set) var enableComplete: LECSProcedureEnableComplete?
    public private(set) var failure: HostError?
    /// The controller's LE ACL buffers (octets each, how many), from LE Read Buffer Size;
    /// until then the LE minimum, one of 27 octets.
    public private(set) var aclBuffers = (length: 27, count: 1)
    /// The controller's public address (Read BD_ADDR), which pairing names as this side's.
    public private(set) var localAddress: UInt64?

    private var pipeline = CommandPipeline()
    /// LE Meta subevent or event code the host waits for before its next command, if any.
    private var awaiting: UInt8?
    private var stage = 0
    private var assembler = ProcedureAssembler(role: .initiator)
    private var ras = RASReassembler()
    /// Procedures waiting for the reflector's RAS data, and RAS data waiting for its procedure,
    /// by ranging counter (the low 12 bits of the procedure counter).
    private var waitingForRAS: [UInt16: ProcedureResults] = [:]
    private var rasBeforeProcedure: [UInt16: RangingData] = [:]

    /// Whether the procedures use inline PCT transfer (the reflector's PCTs are then not needed).
    public var usesInlinePCT: Bool { agreedConfiguration?.inlinePCT ?? configuration.inlinePCT }

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
        pipeline.enqueue(HostCommands.enableEncryption(handle: handle, key: key))
        awaiting = HostCommands.encryptionChangeCode
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
    }

    /// Whether procedures are running.
    public var isRanging: Bool { enableComplete != nil && failure == nil }

    /// The command sent and not yet answered (Command Complete or Status), if any: a board
    /// that stays silent on it has gone away.
    public var unansweredOpcode: UInt16? { pipeline.outstanding?.opcode }

    /// The event the host waits for before its next command (an LE subevent code, or an event
    /// code for Encryption Change and Read Remote Version Information Complete), by name.
    public var awaitedEvent: String? {
        if holdsForRangingData { return "the RAS subscription (the reflector's Ranging Service)" }
        if holdsForEncryptionKey { return "pairing (LE Secure Connections)" }
        guard let code = awaiting else { return nil }
        switch code {
        case LESubeventCode.advertisingReport: return "LE Advertising Report"
        case HostCommands.connectionCompleteCode: return "LE Connection Complete"
        case HostCommands.encryptionChangeCode: return "Encryption Change"
        case ReadRemoteVersionInformationComplete.eventCode: return "Read Remote Version Information Complete"
        case LECSReadRemoteSupportedCapabilitiesComplete.subeventCode: return "LE CS Read Remote Supported Capabilities Complete"
        case LECSSecurityEnableComplete.subeventCode: return "LE CS Security Enable Complete"
        case LECSConfigComplete.subeventCode: return "LE CS Config Complete"
        case LECSProcedureEnableComplete.subeventCode: return "LE CS Procedure Enable Complete"
        default: return "event 0x" + String(code, radix: 16)
        }
    }

    /// Whether the host is looking for its peer (scanning for an advertiser its plan accepts).
    public var isScanning: Bool { awaiting == LESubeventCode.advertisingReport }

    /// The next command packet to send (opcode, length, parameters), if the host has one and the
    /// previous one was answered.
    public mutating func nextCommand() -> [UInt8]? {
        // Stages that do not apply (connecting, when already connected) enqueue nothing.
        while pipeline.isIdle, awaiting == nil, !holdsForRangingData, !holdsForEncryptionKey, failure == nil, stage <= Self.lastStage { enqueueStage() }
        return pipeline.next()?.encode()
    }

    /// Stops ranging: LE CS Procedure Enable with Enable = 0.
    public mutating func stop() {
        guard enableComplete != nil else { return }
        pipeline.enqueue(LECSProcedureEnable(connectionHandle: handle, configID: setup.configuration.configID, enable: false))
        awaiting = LECSProcedureEnableComplete.subeventCode
    }

    /// After LE CS Procedure Enable Complete reported a failure, tries LE CS Procedure Enable
    /// again: a reflector whose host has not allowed its role yet (LE CS Set Default Settings
    /// comes on its own schedule) refuses the start, and a later try succeeds. Returns false
    /// (and does nothing) when the host failed at any other step.
    @discardableResult
    public mutating func retryProcedureEnable() -> Bool {
        guard case .procedureFailed(event: Self.procedureEnableEvent, _)? = failure else { return false }
        failure = nil
        awaiting = nil
        stage = Self.lastStage
        return true
    }

    public static let procedureEnableEvent = "CS Procedure Enable Complete"

    /// Starts procedures again after `stop()` has completed (`.disabled`), with new procedure
    /// parameters: LE CS Set Procedure Parameters, which the controller takes only while
    /// procedures are disabled (Core 6.0 Vol 4 Part E §7.8.140), then LE CS Procedure Enable.
    /// The configuration, security and capabilities exchanged at set-up still hold. This is how
    /// a phone pauses ranging in the background and changes the procedure rate. Returns false
    /// (and does nothing) while procedures run, before set-up finished, or after a failure.
    @discardableResult
    public mutating func restart(parameters: ProcedureParameters) -> Bool {
        guard enableComplete == nil, awaiting == nil, failure == nil, stage > Self.lastStage else { return false }
        setup.parameters = parameters
        stage = Self.lastStage - 1
        return true
    }

    /// Handles one HCI event packet (no H4 indicator).
    public mutating func handleEvent(_ bytes: some Collection<UInt8>) -> [Output] {
        let event: HCIPacket
        do { event = try HCIPacket(event: bytes) } catch { return fail(.malformedEvent("\(error)")) }
        if let answer = pipeline.answer(event) { return handle(answer) }
        if event.eventCode == ReadRemoteVersionInformationComplete.eventCode { return handleRemoteVersion(event) }
        if event.eventCode == HostCommands.encryptionChangeCode {
            let p = event.parameters
            guard p.count >= 4 else { return fail(.malformedEvent("Encryption Change")) }
            let status = HCIStatus(rawValue: p[0]) ?? .unspecifiedError
            guard status == .success, p[3] != 0 else { return fail(.procedureFailed(event: "Encryption Change", status: status == .success ? .pinOrKeyMissing : status)) }
            return finishAwait(code: HostCommands.encryptionChangeCode)
        }
        if event.eventCode == DisconnectionComplete.eventCode { return handleDisconnection(event) }
        guard let code = event.leSubeventCode else { return [] }
        switch code {
        case LESubeventCode.advertisingReport:
            guard awaiting == code, let filter = setup.connect?.scan, let e = try? LEAdvertisingReport.decode(packet: event) else { return [] }
            // ADV_IND (0) and ADV_DIRECT_IND (1) are connectable; a scan response (4) may carry the name.
            for r in e.reports where (r.eventType <= 1 || r.eventType == 4 && filter.needsScanResponse) && filter.accepts(address: r.address, r.data) {
                setup.connect?.peerAddress = r.address
                setup.connect?.peerAddressIsRandom = r.addressType & 1 == 1
                return finishAwait(code: code)
            }
            return []
        case LESubeventCode.connectionComplete, LESubeventCode.enhancedConnectionComplete:
            // Status, then Connection_Handle (12 bits of 16).
            var fields = (try? event.leSubeventBody(code)).map(ByteReader.init)
            guard let statusRaw = try? fields?.u8("Status"), let h = try? fields?.u16("Connection_Handle") else {
                return fail(.malformedEvent("LE Connection Complete"))
            }
            let status = HCIStatus(rawValue: statusRaw) ?? .unspecifiedError
            guard status == .success else { return fail(.procedureFailed(event: "LE Connection Complete", status: status)) }
            handle = h & 0x0FFF
            return finishAwait(code: HostCommands.connectionCompleteCode)
        case LECSReadRemoteSupportedCapabilitiesComplete.subeventCode, LECSReadRemoteSupportedCapabilitiesComplete.v2SubeventCode:
            guard let e = try? LECSReadRemoteSupportedCapabilitiesComplete.decode(packet: event) else { return fail(.malformedEvent("CS Read Remote Supported Capabilities Complete")) }
            guard e.status == .success else { return fail(.procedureFailed(event: "CS Read Remote Supported Capabilities Complete", status: e.status)) }
            remoteCapabilities = e.capabilities
            return finishAwait(code: LECSReadRemoteSupportedCapabilitiesComplete.subeventCode)
        case LECSSecurityEnableComplete.subeventCode:
            guard let e = try? LECSSecurityEnableComplete.decode(try event.leSubeventBody(code)) else { return fail(.malformedEvent("CS Security Enable Complete")) }
            guard e.status == .success else { return fail(.procedureFailed(event: "CS Security Enable Complete", status: e.status)) }
            return finishAwait(code: code)
        case LECSConfigComplete.subeventCode:
            guard let e = try? LECSConfigComplete.decode(try event.leSubeventBody(code)) else { return fail(.malformedEvent("CS Config Complete")) }
            guard e.status == .success else { return fail(.procedureFailed(event: "CS Config Complete", status: e.status)) }
            if let c = e.configuration { agreedConfiguration = c }
            let outputs = finishAwait(code: code)
            guard !usesInlinePCT, setup.waitsForRangingDataClient, !rangingDataClientIsReady else { return outputs }
            holdsForRangingData = true
            return outputs + [.needsRangingData]
        case LECSProcedureEnableComplete.subeventCode:
            guard let e = try? LECSProcedureEnableComplete.decode(try event.leSubeventBody(code)) else { return fail(.malformedEvent("CS Procedure Enable Complete")) }
            guard e.status == .success else { return fail(.procedureFailed(event: Self.procedureEnableEvent, status: e.status)) }
            awaiting = nil
            if e.enabled {
                enableComplete = e
                return [.enabled(e)]
            }
            enableComplete = nil
            return [.disabled]
        case LECSSubeventResult.subeventCode, LECSSubeventResultContinue.subeventCode:
            do {
                if let p = try assembler.add(event) { return deliver(p) }
            } catch {
                return [.failed(.malformedEvent("CS Subevent Result: \(error)"))]
            }
            return []
        default:
            return []
        }
    }

    /// One notification of the reflector's Real-time Ranging Data characteristic (RAS): the
    /// segments of a procedure's ranging data, reassembled and paired with the initiator's own
    /// results by ranging counter.
    public mutating func receiveRangingData(_ segment: some Collection<UInt8>) -> [Output] {
        let body: [UInt8]?
        do { body = try ras.add(segment) } catch { return [] }  // a lost segment loses that procedure only
        guard let body, let paths = agreedAntennaPaths,
            let data = try? RangingData.decode(body, senderRole: .reflector, antennaPaths: paths)
        else { return [] }
        let counter = data.header.rangingCounter
        if let p = waitingForRAS.removeValue(forKey: counter) { return [combine(p, data)] }
        rasBeforeProcedure[counter] = data
        return []
    }

    private var agreedAntennaPaths: Int? { enableComplete?.antennaConfiguration?.antennaPaths }

    private mutating func deliver(_ p: ProcedureResults) -> [Output] {
        if usesInlinePCT { return [.procedure(p, reflectorSteps: nil)] }
        let counter = p.procedureCounter & 0x0FFF
        if let data = rasBeforeProcedure.removeValue(forKey: counter) { return [combine(p, data)] }
        waitingForRAS[counter] = p
        // Keep only a few unanswered procedures, as a phone's buffer would.
        if waitingForRAS.count > 8, let oldest = waitingForRAS.keys.min() { waitingForRAS[oldest] = nil }
        return []
    }

    private func combine(_ p: ProcedureResults, _ data: RangingData) -> Output {
        var steps: [StepData?] = []
        for s in data.subevents { for step in s.steps { steps.append(step.data) } }
        return .procedure(p, reflectorSteps: steps)
    }

    // MARK: Set-up sequence

    static let lastStage = 14

    /// The set-up, one command (and the event it starts) per stage.
    private mutating func enqueueStage() {
        let h = handle
        defer { stage += 1 }
        switch stage {
        case 0: pipeline.enqueue(HostCommands.reset)
        case 1:
            pipeline.enqueue(HostCommands.setEventMask)
            pipeline.enqueue(HostCommands.leReadBufferSize)
            pipeline.enqueue(HostCommands.readBDAddr)
        case 2: pipeline.enqueue(HostCommands.leSetEventMask)
        case 3: pipeline.enqueue(HostCommands.setCSHostSupport)
        case 4:
            // Find the peer first when asked: scan actively until an advertiser passes the filter.
            guard setup.connect?.scan != nil else { return }
            pipeline.enqueue(LESetScanParameters(active: true, interval: 0x0060, window: 0x0060, ownAddressType: 0, filterPolicy: 0))
            pipeline.enqueue(LESetScanEnable(enable: true, filterDuplicates: false))
            awaiting = LESubeventCode.advertisingReport
        case 5:
            // Connect first when asked (a board with no connection yet).
            guard let plan = setup.connect else { return }
            if plan.scan != nil { pipeline.enqueue(LESetScanEnable(enable: false, filterDuplicates: false)) }
            pipeline.enqueue(HostCommands.createConnection(plan))
            awaiting = HostCommands.connectionCompleteCode
        case 6:
            guard let plan = setup.connect else { return }
            // No bond key: the key comes from pairing (or a bond the caller holds), `encrypt(with:)`.
            guard let key = plan.longTermKey.isEmpty ? encryptionKey : plan.longTermKey else { return holdsForEncryptionKey = true }
            pipeline.enqueue(HostCommands.enableEncryption(handle: h, key: key))
            awaiting = HostCommands.encryptionChangeCode
        case 7: pipeline.enqueue(LECSReadLocalSupportedCapabilitiesV2())
        case 8:
            pipeline.enqueue(ReadRemoteVersionInformation(connectionHandle: h))
            awaiting = ReadRemoteVersionInformationComplete.eventCode
        case 9:
            pipeline.enqueue(LECSReadRemoteSupportedCapabilities(connectionHandle: h))
            awaiting = LECSReadRemoteSupportedCapabilitiesComplete.subeventCode
        case 10:
            pipeline.enqueue(LECSSecurityEnable(connectionHandle: h))
            awaiting = LECSSecurityEnableComplete.subeventCode
        case 11: pipeline.enqueue(LECSSetDefaultSettings(connectionHandle: h, initiatorEnabled: true, reflectorEnabled: false, csSyncAntennaSelection: 0x01, maxTxPower: 20))
        case 12:
            pipeline.enqueue(LECSCreateConfig(connectionHandle: h, createContext: .localAndRemote, configuration: configuration))
            awaiting = LECSConfigComplete.subeventCode
        case 13: pipeline.enqueue(LECSSetProcedureParameters(connectionHandle: h, configID: setup.configuration.configID, parameters: setup.parameters))
        case 14:
            pipeline.enqueue(LECSProcedureEnable(connectionHandle: h, configID: setup.configuration.configID, enable: true))
            awaiting = LECSProcedureEnableComplete.subeventCode
        default: break
        }
    }

    private mutating func handle(_ answer: CommandAnswer) -> [Output] {
        guard answer.status == .success else {
            return fail(.commandFailed(command: HostCommands.name(answer.opcode), status: answer.status))
        }
        if answer.opcode == HCIOpcode.readBDAddr, answer.returnParameters.count >= 7 {
            var r = ByteReader(answer.returnParameters.dropFirst())
            localAddress = try? r.uint(6, "BD_ADDR")
        }
        if answer.opcode == HCIOpcode.leReadBufferSize {
            // Status, LE_ACL_Data_Packet_Length 2, Total_Num_LE_ACL_Data_Packets 1; a length
            // of 0 means the LE link shares the BR/EDR buffers: keep the LE minimum.
            var r = ByteReader(answer.returnParameters.dropFirst())
            if let length = try? r.u16("LE_ACL_Data_Packet_Length"), let count = try? r.u8("Total_Num_LE_ACL_Data_Packets"), length > 0 {
                aclBuffers = (Int(length), max(1, Int(count)))
            }
        }
        if answer.opcode == LECSReadLocalSupportedCapabilitiesV2.opcode {
            localCapabilities = (try? LECSLocalCapabilitiesReturn.decode(answer.returnParameters, v2: true))?.capabilities
        }
        return []
    }

    /// The connection is gone: whatever the host was doing fails, and it cannot restart.
    private mutating func handleDisconnection(_ event: HCIPacket) -> [Output] {
        guard failure == nil else { return [] }
        guard let e = try? DisconnectionComplete.decode(packet: event) else { return fail(.malformedEvent("Disconnection Complete")) }
        guard e.status == .success, e.connectionHandle == handle else { return [] }
        return fail(.linkLost(e.reason))
    }

    private mutating func handleRemoteVersion(_ event: HCIPacket) -> [Output] {
        guard let e = try? ReadRemoteVersionInformationComplete.decode(event.parameters) else { return fail(.malformedEvent("Read Remote Version Information Complete")) }
        guard e.status == .success else { return fail(.procedureFailed(event: "Read Remote Version Information Complete", status: e.status)) }
        remoteVersion = e.version
        return finishAwait(code: ReadRemoteVersionInformationComplete.eventCode)
    }

    /// The awaited event arrived. After the remote capabilities, check what iOS requires.
    private mutating func finishAwait(code: UInt8) -> [Output] {
        guard awaiting == code else { return [] }
        awaiting = nil
        if code == LECSReadRemoteSupportedCapabilitiesComplete.subeventCode, setup.requireIOSCompliance, let caps = remoteCapabilities {
            let report = IOSComplianceReport(capabilities: caps, bluetoothVersion: remoteVersion ?? 0)
            if !report.isCompliant { return fail(.accessoryNotSupported(report.unmet)) }
        }
        return []
    }

    private mutating func fail(_ error: HostError) -> [Output] {
        failure = error
        pipeline.clear()
        awaiting = nil
        return [.failed(error)]
    }
}
