import WireFormat

/// The accessory's host side of Channel Sounding: it readies its controller for the reflector
/// role (event masks, CS host support, LE CS Set Default Settings) and, when inline PCT transfer
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

    /// The connection's handle; with `waitsForConnection`, the one LE Connection Complete gives.
    public private(set) var connectionHandle: UInt16
    /// Set Default Settings waits for a connection (LE Connection Complete, any form), and is
    /// sent again on each new one, as a reflector's host does on a board that advertises;
    /// otherwise it follows the set-up at once (the controller is already connected).
    public let waitsForConnection: Bool
    private var connected: Bool
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
    private var stage = 0
    private var procedures: ReflectorProcedures

    public init(connectionHandle: UInt16, attMTU: Int = 247, syncAntenna: UInt8 = 1, waitsForConnection: Bool = false) {
        self.connectionHandle = connectionHandle
        self.waitsForConnection = waitsForConnection
        connected = !waitsForConnection
        procedures = ReflectorProcedures(attMTU: attMTU)
        self.syncAntenna = syncAntenna
    }

    /// Whether set-up is done.
    public var isReady: Bool { stage > 4 && scheduler.isIdle }

    /// The next command packet to send, if any.
    public mutating func nextCommand() -> [UInt8]? {
        if scheduler.isIdle { enqueueStage() }
        return scheduler.next()?.encode()
    }

    private mutating func enqueueStage() {
        defer { stage += 1 }
        switch stage {
        case 0: scheduler.enqueue(CSHostSetup.reset)
        case 1: scheduler.enqueue(CSHostSetup.setEventMask)
        case 2: scheduler.enqueue(CSHostSetup.leSetEventMask)
        case 3: scheduler.enqueue(CSHostSetup.setCSHostSupport)
        case 4:
            guard connected else { return stage -= 1 }
            scheduler.enqueue(ReflectorProcedures.defaultSettings(connectionHandle: connectionHandle, syncAntenna: syncAntenna))
        default: break
        }
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
