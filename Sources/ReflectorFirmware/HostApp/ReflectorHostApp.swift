import WireFormat

/// The accessory's host side of Channel Sounding: it readies its controller for the reflector
/// role (event masks, CS host support, LE CS Set Default Settings) and, when inline PCT transfer
/// is off, serves each procedure's results to the phone as RAS ranging data (real-time mode:
/// the segments of the Real-time Ranging Data characteristic, RAS 1.0 §3.2). With inline PCT
/// the phone needs nothing from it, as Nordic's IPT reflector shows.
public struct ReflectorHostApp: Sendable {
    /// What handling an event produced.
    public enum Output: Sendable, Equatable {
        /// The peer created a configuration on this side (LE CS Config Complete).
        case configured(CSConfiguration)
        /// Procedures were enabled or disabled.
        case procedures(enabled: Bool)
        /// What the reflector measured in one procedure (every procedure, for PCT reporting).
        case measured(ProcedureResults)
        /// Notifications of Real-time Ranging Data for one procedure, in order.
        case rangingData(counter: UInt16, segments: [[UInt8]])
        /// A command failed during set-up.
        case failed(opcode: UInt16, status: HCIStatus)
        /// The connection went down (Disconnection Complete): its configuration went with it.
        case disconnected(reason: HCIStatus)
    }

    /// The connection's handle; with `waitsForConnection`, the one LE Connection Complete gives.
    public private(set) var connectionHandle: UInt16
    /// Set Default Settings waits for a connection (LE Connection Complete, any form), and is
    /// sent again on each new one, as a reflector's host does on a board that advertises;
    /// otherwise it follows the set-up at once (the controller is already connected).
    public let waitsForConnection: Bool
    private var connected: Bool
    /// The negotiated ATT_MTU, which bounds each RAS segment.
    public var attMTU: Int
    /// CS_SYNC antenna for Set Default Settings (1...4).
    public var syncAntenna: UInt8
    public private(set) var configuration: CSConfiguration?
    public private(set) var selectedTxPower: Int8 = 0
    private var pipeline = CommandPipeline()
    private var stage = 0
    private var assembler = ProcedureAssembler(role: .reflector)
    private var segmentCounter: UInt8 = 0

    public init(connectionHandle: UInt16, attMTU: Int = 247, syncAntenna: UInt8 = 1, waitsForConnection: Bool = false) {
        self.connectionHandle = connectionHandle
        self.waitsForConnection = waitsForConnection
        connected = !waitsForConnection
        self.attMTU = attMTU
        self.syncAntenna = syncAntenna
    }

    /// Whether set-up is done.
    public var isReady: Bool { stage > 4 && pipeline.isIdle }

    /// The next command packet to send, if any.
    public mutating func nextCommand() -> [UInt8]? {
        if pipeline.isIdle { enqueueStage() }
        return pipeline.next()?.encode()
    }

    private mutating func enqueueStage() {
        defer { stage += 1 }
        switch stage {
        case 0: pipeline.enqueue(CSHostSetup.reset)
        case 1: pipeline.enqueue(CSHostSetup.setEventMask)
        case 2: pipeline.enqueue(CSHostSetup.leSetEventMask)
        case 3: pipeline.enqueue(CSHostSetup.setCSHostSupport)
        case 4:
            guard connected else { return stage -= 1 }
            pipeline.enqueue(LECSSetDefaultSettings(connectionHandle: connectionHandle, initiatorEnabled: false, reflectorEnabled: true,
                                                    csSyncAntennaSelection: syncAntenna, maxTxPower: 20))
        default: break
        }
    }

    /// Handles one HCI event packet (no H4 indicator).
    public mutating func handleEvent(_ bytes: some Collection<UInt8>) -> [Output] {
        guard let event = try? HCIPacket(event: bytes) else { return [] }
        if let answer = pipeline.answer(event) {
            return answer.status == .success ? [] : [.failed(opcode: answer.opcode, status: answer.status)]
        }
        if event.eventCode == DisconnectionComplete.eventCode, let e = try? DisconnectionComplete.decode(packet: event) {
            guard e.connectionHandle == connectionHandle else { return [] }
            configuration = nil
            assembler = ProcedureAssembler(role: .reflector)
            if waitsForConnection {
                connected = false
                stage = min(stage, 4)
            }
            return [.disconnected(reason: e.reason)]
        }
        guard let code = event.leSubeventCode, let body = try? event.leSubeventBody(code) else { return [] }
        switch code {
        case LESubeventCode.connectionComplete, LESubeventCode.enhancedConnectionComplete, LESubeventCode.enhancedConnectionCompleteV2:
            // LE (Enhanced) Connection Complete: Status, then Connection_Handle (12 bits).
            guard waitsForConnection, body.count >= 3, body[body.startIndex] == 0 else { return [] }
            connectionHandle = (UInt16(body[body.startIndex + 1]) | UInt16(body[body.startIndex + 2]) << 8) & 0x0FFF
            connected = true
            return []
        case LECSConfigComplete.subeventCode:
            guard let e = try? LECSConfigComplete.decode(body), e.status == .success else { return [] }
            configuration = e.action == .created ? e.configuration : nil
            return configuration.map { [.configured($0)] } ?? []
        case LECSProcedureEnableComplete.subeventCode:
            guard let e = try? LECSProcedureEnableComplete.decode(body), e.status == .success else { return [] }
            if e.enabled { selectedTxPower = e.selectedTxPower }
            return [.procedures(enabled: e.enabled)]
        case LECSSubeventResult.subeventCode, LECSSubeventResultContinue.subeventCode:
            guard let procedure = try? assembler.add(event) else { return [] }
            // Under inline PCT transfer the phone does not need the reflector's results.
            if configuration?.inlinePCT == true { return [.measured(procedure)] }
            let body = RangingData(selectedTxPower: selectedTxPower, results: procedure.subevents).encode()
            let segments = RASSegmenter.segments(of: body, attMTU: attMTU, firstCounter: segmentCounter)
            segmentCounter = UInt8(truncatingIfNeeded: Int(segmentCounter) + segments.count) & 0x3F
            return [.measured(procedure), .rangingData(counter: procedure.procedureCounter & 0x0FFF, segments: segments)]
        default:
            return []
        }
    }
}
