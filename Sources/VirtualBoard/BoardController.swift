import BLEHost
import ReflectorFirmware

/// The controller of a virtual dev board: what a real controller does for its host (Core 6.0
/// Vol 4 Part E §7.1–§7.8) with a link layer that speaks to another board through the air
/// (`AirPDU`): advertising and scanning, connecting, ACL data with flow control and
/// fragmentation, encryption, the feature exchange and data length update, termination, and,
/// through this project's CS controller, Channel Sounding. One connection at a time. Pure:
/// commands, ACL packets and the peer's PDUs in; events, ACL packets and PDUs out; time given.
///
/// The general commands are a table (`BoardCommands`) layered on the CS controller: a command
/// in the table is the board's, any other goes to `CSController.handleCommand(_:)`, and Read
/// Local Supported Commands reports exactly the union of the two.
public struct BoardController: Sendable {
    public var cs: CSController<AES128>
    /// The board's public device address (Read BD_ADDR).
    public let address: UInt64
    /// The random address the host set (LE Set Random Address), used when it asks for a random own address.
    var randomAddress: UInt64?
    /// Legacy advertising (handle `AdvertisingSet.legacyHandle`) and the extended sets by handle.
    var advertisingSets: [UInt8: AdvertisingSet] = [:]
    var scan: ScanState?
    var scanParameters = ScanParameters()
    var initiating: Initiation?
    var filterAcceptList: Set<DeviceAddress> = []
    /// The connection, while there is one.
    public internal(set) var link: Link?
    /// The lengths the host suggested for new connections (LE Write Suggested Default Data Length).
    var suggestedTxOctets: UInt16 = 27
    var suggestedTxTime: UInt16 = 328
    var events: [HCIPacket] = []
    var transmissions: [AirPDU] = []
    var completedPackets: UInt16 = 0
    var leHostSupported = false
    var now: UInt64 = 0
    var random: ControllerRandom
    /// Emulation only: the MIC check passes whatever keys the two sides used (`serve` without
    /// `--bond-ltk`, whose emulated peer has no bond to agree with). Set on both boards.
    public var acceptsAnyKey = false
    /// The UART lost sync (an octet from the host garbled or lost): the board has sent Hardware
    /// Error and takes nothing but HCI Reset until it comes (Core 6.0 Vol 4 Part A §2, the
    /// UART transport's error recovery).
    public internal(set) var awaitsReset = false

    /// Connection handle of the one connection.
    public static let connectionHandle: UInt16 = 0x0040
    /// ACL buffers the board reports (Read Buffer Size, LE Read Buffer Size): 4 of 251 octets.
    public static let aclBufferLength = 251, aclBuffers = 4

    public init(capabilities: CSCapabilities, address: UInt64, seed: UInt64) {
        self.address = address & 0xFFFF_FFFF_FFFF
        random = ControllerRandom(seed: seed ^ 0x5A5A)
        // Until a connection exists, no handle is valid.
        cs = CSController(capabilities: capabilities, address: address,
                          connection: LinkConnection(handle: 0xFFFF, isCentral: false), seed: seed)
        cs.loseConnection(reason: .connectionTerminatedByLocalHost)
        _ = cs.takeEvents()
    }

    /// Every opcode the board answers: its own table and the CS controller's commands.
    public static var answeredOpcodes: Set<UInt16> { Set(BoardCommands.handlers.keys).union(CSController<AES128>.answeredOpcodes) }

    public var handle: UInt16 { Self.connectionHandle }
    public var connected: Bool { link != nil }
    public var encrypted: Bool { link?.encryption.isOn == true }
    public var advertising: Bool { advertisingSets.values.contains { $0.enabled } }
    public var scanning: Bool { scan != nil }

    /// Handles one HCI command packet from the host: the board's table first, then the CS
    /// controller (which answers malformed packets and unknown opcodes).
    public mutating func handleCommand(_ bytes: [UInt8]) {
        if awaitsReset {
            guard let packet = try? HCIPacket(command: bytes), packet.opcode == HCIOpcode.reset else { return }
            awaitsReset = false
        }
        guard let packet = try? HCIPacket(command: bytes), let op = packet.opcode, let handler = BoardCommands.handlers[op] else {
            return cs.handleCommand(bytes)
        }
        handler(&self, op, packet.parameters, bytes)
    }

    /// The host's octets reached the board garbled or short, so it lost H4 sync: Hardware
    /// Error (code 0x01, the transport's) and nothing but Reset taken until it comes.
    public mutating func lostSync() {
        awaitsReset = true
        events.append(HCIPacket(eventCode: HCIEventCode.hardwareError, parameters: [Self.syncLostCode]))
    }

    /// The Hardware_Code the board reports for a loss of UART sync.
    public static let syncLostCode: UInt8 = 0x01

    /// Events and ACL data for the host since the last call, oldest first (CS events included).
    public mutating func takeEvents() -> [HCIPacket] {
        collectCSOutput()
        var out = events
        events.removeAll()
        if completedPackets > 0 {
            out.append(NumberOfCompletedPackets(connectionHandle: handle, completedPackets: completedPackets).packet)
            completedPackets = 0
        }
        return out
    }

    /// What the board puts on the air for the other board since the last call, oldest first.
    public mutating func takeTransmissions() -> [AirPDU] {
        collectCSOutput()
        defer { transmissions.removeAll() }
        return transmissions
    }

    /// Moves the clock: advertising events fall due, the CS controller's procedure timers run
    /// (a procedure left unanswered for T_PRT drops the link), and a peer that fell silent is
    /// given up after the supervision timeout.
    public mutating func advance(to time: UInt64) {
        now = max(now, time)
        cs.advance(to: now)
        collectCSOutput()
        advertise()
        if let since = link?.peerSilentSince, let timeout = link?.supervisionTimeoutMicroseconds, now >= since + timeout {
            teardown(reason: .connectionTimeout, silently: true)
        }
        if let link, let since = link.procedureSince, now - min(now, since) >= LLProcedureState.responseTimeout {
            teardown(reason: .llResponseTimeout, silently: true)
        }
    }

    /// The CS controller's events go to the host, its LL PDUs on the air; if it dropped the
    /// link (a response timeout), the board leaves the connection without a word.
    mutating func collectCSOutput() {
        for e in cs.takeEvents() { if let p = try? HCIPacket(event: e) { events.append(p) } }
        if let link {
            for pdu in cs.takePDUs() { transmissions.append(.data(llid: AirPDU.control, payload: pdu, sessionKey: link.encryption.txKey)) }
            if !cs.isConnected {
                self.link = nil
                transmissions.append(.silence)
            }
        } else {
            _ = cs.takePDUs()
        }
    }

    func allows(leMeta code: UInt8) -> Bool { cs.masks.allows(leSubevent: code) }
    func allows(event code: UInt8) -> Bool { cs.masks.allows(event: code) }

    // MARK: Answers

    mutating func complete(_ op: UInt16, _ params: [UInt8]) { events.append(CommandCompleteEvent(opcode: op, returnParameters: params).packet) }
    mutating func complete(_ op: UInt16, status: HCIStatus) { complete(op, [status.rawValue]) }
    mutating func complete(_ op: UInt16, status: HCIStatus, handle: UInt16) {
        complete(op, StatusConnectionHandleReturn(status: status, connectionHandle: handle).encode())
    }
    mutating func status(_ op: UInt16, _ s: HCIStatus) { events.append(CommandStatusEvent(status: s, opcode: op).packet) }
    mutating func leMeta(_ code: UInt8, _ packet: HCIPacket) {
        if allows(leMeta: code) { events.append(packet) }
    }
}

/// A device address with its type (0 public, 1 random), as advertising and connecting name it.
public struct DeviceAddress: Sendable, Hashable {
    public var address: UInt64
    public var type: UInt8

    public init(_ address: UInt64, type: UInt8) {
        self.address = address & 0xFFFF_FFFF_FFFF
        self.type = type & 1
    }
}
