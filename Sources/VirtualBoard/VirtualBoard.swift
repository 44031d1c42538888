import BLEHost
import HCITransport
import PhoneEmulation
import RadioWorld
import ReflectorFirmware

/// A dev board that does not exist: `BoardController` behind the host's HCI line, and at the
/// other end of its one connection an emulated device of the other role in the simulated air:
/// an iPhone-like initiator (phone host and controller) when serving a reflector, this project's
/// reflector firmware (host app and controller) when serving an initiator. The serve command
/// feeds it the host's packets and the passing time; it answers with the packets for the host.
public struct VirtualBoard {
    public private(set) var board: BoardController
    public private(set) var peerController: CSController<AES128>
    /// The phone's host, when the board serves a reflector.
    public private(set) var phoneHost: InitiatorHost?
    /// The accessory's host app, when the board serves an initiator.
    public private(set) var accessoryHost: ReflectorHostApp
    private var boardRadio: AirRadio
    private var peerRadio: AirRadio
    private var phoneStarted = false
    /// The phone starts CS a while after encryption (as an iPhone does after its GATT and
    /// AccessorySetupKit exchanges), so the accessory's host can set its CS defaults first.
    private var phoneStartAt: UInt64?
    static let phoneStartDelay: UInt64 = 200_000
    private let peerSetup: () -> (CSController<AES128>, InitiatorHost?)
    /// The virtual clock, µs.
    public private(set) var clock: UInt64 = 0
    /// What the emulated phone reported (set-up failures, procedures), for logs and tests.
    public private(set) var phoneOutputs: [InitiatorHost.Output] = []
    public private(set) var proceduresRun = 0
    /// A peer whose link layer has stopped answering: the board's LL control PDUs no longer
    /// reach it, so a procedure the board starts waits until its response timeout (40 s) drops
    /// the link. For tests and demonstrations of a misbehaving peer.
    public var peerIsSilent = false

    public struct Options: Sendable {
        public var role: BoardController.Role
        public var scenario: AirScenario
        public var boardAddress: UInt64
        public var peerAddress: UInt64
        public var bondLTK: [UInt8]?
        public var antennas: Int

        public init(role: BoardController.Role, scenario: AirScenario = AirScenario(), boardAddress: UInt64 = 0xC0FF_EE00_00B0,
                    peerAddress: UInt64 = 0xC0FF_EE00_00B1, bondLTK: [UInt8]? = nil, antennas: Int = 1) {
            self.role = role
            self.scenario = scenario
            self.boardAddress = boardAddress
            self.peerAddress = peerAddress
            self.bondLTK = bondLTK
            self.antennas = antennas
        }
    }

    public init(_ o: Options) {
        let air = Air(scenario: o.scenario)
        let handle = BoardController.connectionHandle
        let seed = o.scenario.seed
        let boardCaps: CSCapabilities = o.role == .reflector ? .projectReflector(antennas: o.antennas) : .emulatedPhone(antennas: o.antennas)
        board = BoardController(role: o.role, capabilities: boardCaps, address: o.boardAddress, peerAddress: o.peerAddress,
                                bondLTK: o.bondLTK, seed: seed &* 7 &+ 3)
        boardRadio = air.radio(o.role == .reflector ? .reflector : .initiator)
        peerRadio = air.radio(o.role == .reflector ? .initiator : .reflector)
        let role = o.role
        let peerAddress = o.peerAddress
        peerSetup = {
            if role == .reflector {
                // The phone: an iPhone-like controller (central) and host asking for inline PCT.
                let controller = CSController(capabilities: .emulatedPhone(), address: peerAddress,
                                              connection: LinkConnection(handle: handle, isCentral: true), seed: seed &* 11 &+ 5)
                let setup = LoopbackSetup()
                let host = InitiatorHost(setup: InitiatorHost.Setup(connectionHandle: handle, configuration: setup.configuration,
                                                                    parameters: setup.parameters))
                return (controller, host)
            }
            let controller = CSController(capabilities: .projectReflector(antennas: 1), address: peerAddress,
                                          connection: LinkConnection(handle: handle, isCentral: false), seed: seed &* 13 &+ 9)
            return (controller, nil)
        }
        (peerController, phoneHost) = peerSetup()
        accessoryHost = ReflectorHostApp(connectionHandle: handle)
    }

    /// Which v2 capabilities form the board returns: Zephyr/Nordic's 31 octets, or Bumble's 34
    /// (Bumble cannot parse the shorter one; reference channel-sounding.md §8).
    public mutating func setCapabilitiesLayout(_ layout: CapabilitiesLayout) {
        board.cs.v2CapabilitiesLayout = layout
    }

    /// A packet from the host: a command, or ACL data (acknowledged and dropped).
    public mutating func receive(_ packet: HCIPacket) {
        switch packet.indicator {
        case .command: board.handleCommand(packet.bytes)
        case .aclData: if let h = packet.aclHandle { board.handleACL(handle: h) }
        default: break
        }
    }

    /// Lets time pass to `now` (µs): connections come up, LL procedures run, due CS procedures
    /// run over the air. Returns the packets for the host, oldest first.
    public mutating func poll(now: UInt64) -> [HCIPacket] {
        clock = max(clock, now)
        board.advance(to: clock)
        peerController.advance(to: clock)
        // The peer's controller gave up on the link (its response timeout): it stops transmitting.
        if board.connected && !peerController.isConnected { board.peerFellSilent() }
        var out: [HCIPacket] = []
        for _ in 0..<64 {
            let before = out.count
            handlePeerActions()
            exchange()
            out += board.takeEvents()
            if out.count == before && !exchangeMoved { break }
        }
        runDueProcedures(&out)
        return out
    }

    private var exchangeMoved = false

    private mutating func handlePeerActions() {
        for action in board.takeActions() {
            switch action {
            case .connected: break
            case .encrypted: if phoneHost != nil { phoneStartAt = clock + Self.phoneStartDelay }
            case .disconnected:
                (peerController, phoneHost) = peerSetup()
                accessoryHost = ReflectorHostApp(connectionHandle: BoardController.connectionHandle)
                phoneStarted = false
                phoneStartAt = nil
            }
        }
    }

    /// One round of peer-side traffic: the peer's host with its controller, and LL PDUs both ways.
    private mutating func exchange() {
        exchangeMoved = false
        if let at = phoneStartAt, clock >= at {
            phoneStartAt = nil
            phoneStarted = true
        }
        if phoneStarted, var host = phoneHost {
            if let command = host.nextCommand() {
                peerController.handleCommand(command)
                exchangeMoved = true
            }
            for e in peerController.takeEvents() {
                phoneOutputs += host.handleEvent(e)
                exchangeMoved = true
            }
            phoneHost = host
        } else if phoneHost == nil {
            if let command = accessoryHost.nextCommand() {
                peerController.handleCommand(command)
                exchangeMoved = true
            }
            for e in peerController.takeEvents() {
                _ = accessoryHost.handleEvent(e)
                exchangeMoved = true
            }
        }
        guard board.connected else {
            _ = board.cs.takePDUs()
            _ = peerController.takePDUs()
            return
        }
        for pdu in board.cs.takePDUs() where !peerIsSilent {
            peerController.receiveFromPeer(pdu)
            exchangeMoved = true
        }
        for pdu in peerController.takePDUs() {
            board.cs.receiveFromPeer(pdu)
            exchangeMoved = true
        }
    }

    private mutating func runDueProcedures(_ out: inout [HCIPacket]) {
        while let start = board.cs.nextProcedureStart, start <= clock, peerController.nextProcedureStart == start {
            if board.role == .initiator {
                _ = ProcedureExchange.run(initiator: &board.cs, reflector: &peerController, initiatorRadio: &boardRadio, reflectorRadio: &peerRadio)
            } else {
                _ = ProcedureExchange.run(initiator: &peerController, reflector: &board.cs, initiatorRadio: &peerRadio, reflectorRadio: &boardRadio)
            }
            proceduresRun += 1
            for _ in 0..<64 {
                exchange()
                let events = board.takeEvents()
                out += events
                if events.isEmpty && !exchangeMoved { break }
            }
        }
    }
}
