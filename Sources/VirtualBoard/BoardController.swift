import BLEHost
import ReflectorFirmware

/// The controller of a virtual dev board: everything a real host stack sends while it
/// initialises and connects (Core 6.0 Vol 4 Part E §7.1–§7.8), around this project's CS
/// controller, which answers the CS commands. One LE connection, to the emulated peer in the
/// simulated air: the peer connects to an advertising reflector, or a served initiator
/// connects to the peer with LE Create Connection. Pure: packets in, packets out, time given.
///
/// The general commands are a table (`BoardCommands`) layered on the CS controller: a command
/// in the table is the board's, any other goes to `CSController.handleCommand(_:)`, and Read
/// Local Supported Commands reports exactly the union of the two.
public struct BoardController: Sendable {
    public enum Role: String, Sendable, Equatable {
        case reflector, initiator
    }

    /// What the board asks of the peer as a consequence of the host's commands.
    public enum PeerAction: Sendable, Equatable {
        /// The connection came up (the peer should start its part).
        case connected
        /// Encryption is on: the peer may start CS.
        case encrypted
        case disconnected
    }

    public let role: Role
    public var cs: CSController<AES128>
    public let handle: UInt16
    public let peerAddress: UInt64
    /// The bond's long-term key (16 octets as HCI carries them); nil accepts any key.
    public let bondLTK: [UInt8]?
    public internal(set) var connected = false
    public internal(set) var encrypted = false
    public internal(set) var advertising = false
    public internal(set) var scanning = false
    /// When a pending connection comes up (µs), once the host advertised or asked to connect.
    public internal(set) var connectAt: UInt64?
    /// LE Create Connection to an address nobody advertises: pending until cancelled.
    var pendingUnknownConnect = false
    var events: [HCIPacket] = []
    var actions: [PeerAction] = []
    var completedPackets: UInt16 = 0
    var leHostSupported = false
    var now: UInt64 = 0
    var nextAdvertisingReport: UInt64 = 0
    var random: ControllerRandom

    /// Connection handle used for the one connection.
    public static let connectionHandle: UInt16 = 0x0040
    /// The link is up a short while after the host asks (advertising and connecting take a few events).
    static let connectionDelay: UInt64 = 30_000

    public init(role: Role, capabilities: CSCapabilities, address: UInt64, peerAddress: UInt64, bondLTK: [UInt8]?, seed: UInt64) {
        self.role = role
        handle = Self.connectionHandle
        self.peerAddress = peerAddress
        self.bondLTK = bondLTK
        random = ControllerRandom(seed: seed ^ 0x5A5A)
        // Until a connection exists, no handle is valid.
        cs = CSController(capabilities: capabilities, address: address,
                          connection: LinkConnection(handle: 0xFFFF, isCentral: role == .initiator), seed: seed)
    }

    /// Every opcode the board answers: its own table and the CS controller's commands.
    public static var answeredOpcodes: Set<UInt16> { Set(BoardCommands.handlers.keys).union(CSController<AES128>.answeredOpcodes) }

    /// Handles one HCI command packet from the host: the board's table first, then the CS
    /// controller (which answers malformed packets and unknown opcodes).
    public mutating func handleCommand(_ bytes: [UInt8]) {
        guard let packet = try? HCIPacket(command: bytes), let op = packet.opcode, let handler = BoardCommands.handlers[op] else {
            return cs.handleCommand(bytes)
        }
        handler(&self, op, packet.parameters, bytes)
    }

    /// Events for the host since the last call (CS events included).
    public mutating func takeEvents() -> [HCIPacket] {
        var out = events
        events.removeAll()
        for e in cs.takeEvents() { if let p = try? HCIPacket(event: e) { out.append(p) } }
        if completedPackets > 0 {
            out.append(NumberOfCompletedPackets(connectionHandle: handle, completedPackets: completedPackets).packet)
            completedPackets = 0
        }
        return out
    }

    /// What the peer must do next.
    public mutating func takeActions() -> [PeerAction] {
        defer { actions.removeAll() }
        return actions
    }

    /// An ACL data packet from the host: the board has no GATT of its own, so it acknowledges
    /// the buffer (Number Of Completed Packets) and drops the payload.
    public mutating func handleACL(handle h: UInt16) {
        if connected && h & 0x0FFF == handle { completedPackets &+= 1 }
    }

    /// Moves the clock: a pending connection comes up when due, a CS procedure the peer has left
    /// unanswered for T_PRT drops the link (the CS controller tells the host), a scanning
    /// initiator hears the emulated reflector advertise.
    public mutating func advance(to time: UInt64) {
        now = max(now, time)
        cs.advance(to: now)
        if connected && !cs.isConnected { linkWentDown() }
        if let at = connectAt, now >= at {
            connectAt = nil
            establish()
        }
        if scanning, !connected, role == .initiator, now >= nextAdvertisingReport, allows(leMeta: LESubeventCode.advertisingReport) {
            nextAdvertisingReport = now + 100_000
            let name = Array("reflector-emu".utf8)
            let data: [UInt8] = [0x02, 0x01, 0x06, UInt8(name.count + 1), 0x09] + name
            let report = LEAdvertisingReport.Report(eventType: 0x00, addressType: 0, address: peerAddress, data: data, rssi: -50)  // ADV_IND, public
            events.append(LEAdvertisingReport(reports: [report]).packet)
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
}
