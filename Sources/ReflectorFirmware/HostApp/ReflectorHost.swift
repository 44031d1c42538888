import WireFormat

/// The accessory's host side of Channel Sounding: it readies its controller for the reflector
/// role (its steps of the one set-up order, `ControllerSetupSequence.reflector`: Reset, the
/// event masks, CS host support; then LE CS Set Default Settings) and, when inline PCT transfer
/// is off, serves each procedure's results to the phone as RAS ranging data (real-time mode:
/// the segments of the Real-time Ranging Data characteristic, RAS 1.0 §3.2). With inline PCT
/// the phone needs nothing from it, as Nordic's IPT reflector shows.
public struct ReflectorHost: Sendable {
    /// What handling an event produced.
    public enum Output: Sendable, Equatable {
        /// What the connection's procedures gave (configuration, enable, measurements, RAS segments).
        case reflector(ReflectorProcedures.Output)
        /// A command failed during set-up.
        case failed(opcode: UInt16, status: HCIStatus)
        /// The connection went down (Disconnection Complete): its configuration went with it.
        case disconnected(reason: HCIStatus)
    }

    /// The connection's handle (the controller is already connected: Set Default Settings
    /// follows the set-up at once).
    public let connectionHandle: UInt16
    /// The negotiated ATT_MTU, which bounds each RAS segment.
    public var attMTU: Int {
        get { procedures.attMTU }
        set { procedures.attMTU = newValue }
    }
    /// CS_SYNC antenna for Set Default Settings (1...4).
    public var syncAntenna: UInt8
    public var configuration: CSConfiguration? { procedures.configuration }
    public var selectedTxPower: Int8 { procedures.selectedTxPower }
    private var scheduler = CommandScheduler()
    private var sequence = ControllerSetupSequence.reflector
    private var defaultSettingsQueued = false
    private var procedures: ReflectorProcedures

    public init(connectionHandle: UInt16, attMTU: Int = 247, syncAntenna: UInt8 = 1) {
        self.connectionHandle = connectionHandle
        procedures = ReflectorProcedures(attMTU: attMTU)
        self.syncAntenna = syncAntenna
    }

    /// Whether set-up is done.
    public var isReady: Bool { defaultSettingsQueued && scheduler.isIdle }

    /// The next command packet to send, if any.
    public mutating func nextCommand() -> [UInt8]? {
        if scheduler.isIdle { enqueueNext() }
        return scheduler.next()?.encode()
    }

    /// The next set-up step (its guards pass everything: this host reads neither the commands
    /// nor the features), then Set Default Settings.
    private mutating func enqueueNext() {
        let facts = ControllerSetupStep.Facts(readsFeatures: sequence.readsFeatures)
        while let step = sequence.next() {
            guard case .send(let packet) = step.decide(facts) else { continue }
            _ = scheduler.enqueue(packet)
            return
        }
        guard !defaultSettingsQueued else { return }
        defaultSettingsQueued = true
        scheduler.enqueue(ReflectorProcedures.defaultSettings(connectionHandle: connectionHandle, syncAntenna: syncAntenna))
    }

    /// Handles one HCI event packet (no H4 indicator).
    public mutating func handleEvent(_ bytes: some Collection<UInt8>) -> [Output] {
        guard let event = try? HCIPacket(event: bytes) else { return [] }
        if let answer = scheduler.answer(event) {
            return answer.status == .success ? [] : [.failed(opcode: answer.opcode, status: answer.status)]
        }
        if event.eventCode == DisconnectionComplete.eventCode, let e = try? DisconnectionComplete.decode(packet: event) {
            guard e.connectionHandle == connectionHandle else { return [] }
            procedures.reset()
            return [.disconnected(reason: e.reason)]
        }
        guard let code = event.leSubeventCode, let body = try? event.leSubeventBody(code) else { return [] }
        switch code {
        case LECSConfigComplete.subeventCode:
            guard let e = try? LECSConfigComplete.decode(body) else { return [] }
            return procedures.configComplete(e).map(Output.reflector)
        case LECSProcedureEnableComplete.subeventCode:
            guard let e = try? LECSProcedureEnableComplete.decode(body) else { return [] }
            return procedures.procedureEnableComplete(e).map(Output.reflector)
        case LECSSubeventResult.subeventCode, LECSSubeventResultContinue.subeventCode:
            return procedures.subeventResult(event).map(Output.reflector)
        default:
            return []
        }
    }
}
