import ReflectorFirmware

/// The controller of a virtual dev board: everything a real host stack sends while it
/// initialises and connects (Core 6.0 Vol 4 Part E §7.1–§7.8), around this project's CS
/// controller, which answers the CS commands. One LE connection, to the emulated peer in the
/// simulated air: the peer connects to an advertising reflector, or a served initiator
/// connects to the peer with LE Create Connection. Pure: packets in, packets out, time given.
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
    public private(set) var connected = false
    public private(set) var encrypted = false
    public private(set) var advertising = false
    public private(set) var scanning = false
    /// When a pending connection comes up (µs), once the host advertised or asked to connect.
    public private(set) var connectAt: UInt64?
    private var events: [HCIPacket] = []
    private var actions: [PeerAction] = []
    private var completedPackets: UInt16 = 0
    private var leHostSupported = false
    private var now: UInt64 = 0
    private var nextAdvertisingReport: UInt64 = 0
    private var random: ControllerRandom

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

    /// Events for the host since the last call (CS events included).
    public mutating func takeEvents() -> [HCIPacket] {
        var out = events
        events.removeAll()
        for e in cs.takeEvents() { if let p = try? HCIPacket(event: e) { out.append(p) } }
        if completedPackets > 0 {
            out.append(BoardEvents.completedPackets(handle: handle, count: completedPackets))
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

    /// Moves the clock: a pending connection comes up when due, and a CS procedure the peer has
    /// left unanswered for T_PRT drops the link (the CS controller tells the host).
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
            events.append(BoardEvents.advertisingReport(address: peerAddress, random: false, data: data, rssi: -50))
        }
    }

    private func allows(leMeta code: UInt8) -> Bool { cs.masks.allows(leSubevent: code) }

    private mutating func establish() {
        connected = true
        advertising = false
        cs.connect(LinkConnection(handle: handle, isCentral: role == .initiator, interval: cs.connection.interval))
        let enhanced = allows(leMeta: LESubeventCode.enhancedConnectionComplete)
        if enhanced || allows(leMeta: LESubeventCode.connectionComplete) {
            events.append(BoardEvents.connectionComplete(handle: handle, central: role == .initiator, peerAddress: peerAddress,
                                                         peerRandom: false, interval: cs.connection.interval, enhanced: enhanced))
        }
        actions.append(.connected)
        // The phone (central) starts encryption with the bonded key: the host is asked for it.
        if role == .reflector { events.append(BoardEvents.longTermKeyRequest(handle: handle)) }
    }

    /// The connection ends (host Disconnect, a failed encryption, or the peer went away); the CS
    /// controller tells the host (Disconnection Complete with `reason`).
    mutating func teardown(reason: HCIStatus) {
        guard connected else { return }
        let masks = cs.masks
        cs.resetState()
        cs.masks = masks
        cs.loseConnection(reason: reason)
        linkWentDown()
    }

    /// The peer's controller lost the link and fell silent: this side's supervision timer
    /// expires (Connection Timeout, 0x08; Core 6.0 Vol 6 Part B §4.5.2).
    public mutating func peerFellSilent() {
        teardown(reason: .connectionTimeout)
    }

    /// The link is down (the CS controller has told the host): no connection, and the peer resets.
    private mutating func linkWentDown() {
        connected = false
        encrypted = false
        cs.connection.handle = 0xFFFF
        actions.append(.disconnected)
    }

    private mutating func complete(_ op: UInt16, _ params: [UInt8]) { events.append(CommandCompleteEvent(opcode: op, returnParameters: params).packet) }
    private mutating func complete(_ op: UInt16, status: HCIStatus, handle: UInt16) {
        events.append(CommandCompleteEvent(opcode: op, status: status, connectionHandle: handle).packet)
    }
    private mutating func status(_ op: UInt16, _ s: HCIStatus) { events.append(CommandStatusEvent(status: s, opcode: op).packet) }

    private mutating func encryptionResult(_ key: [UInt8]?) {
        let ok = key != nil && (bondLTK == nil || key! == bondLTK!)
        encrypted = ok
        if cs.masks.allows(event: HCIEventCode.encryptionChange) {
            events.append(BoardEvents.encryptionChange(status: ok ? .success : .pinOrKeyMissing, handle: handle, enabled: ok))
        }
        if ok { actions.append(.encrypted) } else { teardown(reason: .authenticationFailure) }
    }

    /// Handles one HCI command packet from the host.
    public mutating func handleCommand(_ bytes: [UInt8]) {
        guard let packet = try? HCIPacket(command: bytes), let op = packet.opcode else { return cs.handleCommand(bytes) }
        let p = packet.parameters
        let ok = HCIStatus.success.rawValue
        switch op {
        case HCIOpcode.reset:
            teardownSilently()
            cs.resetState()
            advertising = false
            scanning = false
            connectAt = nil
            leHostSupported = false
            complete(op, [ok])
        case HCIOpcode.setEventMask:
            guard p.count == 8 else { return complete(op, [HCIStatus.invalidHCICommandParameters.rawValue]) }
            cs.masks.events = EventMasks.mask(p)
            complete(op, [ok])
        case HCIOpcode.setEventMaskPage2, HCIOpcode.setControllerToHostFlowControl, HCIOpcode.hostBufferSize,
             HCIOpcode.leWriteSuggestedDefaultDataLength, HCIOpcode.leSetDefaultPHY, HCIOpcode.leClearFilterAcceptList,
             HCIOpcode.leAddDeviceToFilterAcceptList, HCIOpcode.leRemoveDeviceFromFilterAcceptList, HCIOpcode.leSetRandomAddress,
             HCIOpcode.leSetAdvertisingParameters, HCIOpcode.leSetAdvertisingData, HCIOpcode.leSetScanResponseData,
             HCIOpcode.leSetScanParameters:
            // Set Event Mask Page 2, flow control and host buffer size, default data length and
            // PHY, filter accept list, random address, advertising and scan parameters/data: kept
            // by a real controller, nothing the emulation needs.
            complete(op, [ok])
        case HCIOpcode.writeLEHostSupport:
            leHostSupported = p.first == 1
            complete(op, [ok])
        case HCIOpcode.readLEHostSupport:
            complete(op, [ok, leHostSupported ? 1 : 0, 0])
        case HCIOpcode.readLocalSupportedCommands:
            complete(op, [ok] + SupportedCommands.bitmap(adding: Self.boardCommands))
        case HCIOpcode.readBufferSize:  // 251-octet ACL buffers, 4 of them, no SCO
            complete(op, [ok, 251, 0, 0, 4, 0, 0, 0])
        case HCIOpcode.leReadLocalSupportedFeatures:
            var w = ByteWriter(capacity: 9)
            w.u8(ok)
            w.uint(cs.leFeatures | Self.boardFeatures, 8)
            complete(op, w.bytes)
        case HCIOpcode.leReadAdvertisingPhysicalChannelTxPower:
            complete(op, [ok, 0])
        case HCIOpcode.leSetAdvertisingEnable:
            advertising = p.first == 1
            complete(op, [ok])
            // The emulated phone connects to an advertising reflector.
            if advertising, role == .reflector, !connected, connectAt == nil { connectAt = now + Self.connectionDelay }
        case HCIOpcode.leSetScanEnable:
            scanning = p.first == 1
            complete(op, [ok])
        case HCIOpcode.leCreateConnection, HCIOpcode.leExtendedCreateConnection:
            guard role == .initiator, !connected, connectAt == nil else { return status(op, .commandDisallowed) }
            let addressOffset = op == HCIOpcode.leCreateConnection ? 6 : 3
            var fields = ByteReader(p)
            guard (try? fields.skip(addressOffset, "Scan parameters and filter policy")) != nil,
                  let address = try? fields.uint(6, "Peer_Address") else { return status(op, .invalidHCICommandParameters) }
            status(op, .success)
            // Only the emulated reflector is out there; another address never answers.
            if address == peerAddress { connectAt = now + Self.connectionDelay } else { pendingUnknownConnect = true }
        case HCIOpcode.leCreateConnectionCancel:
            guard connectAt != nil || pendingUnknownConnect else { return complete(op, [HCIStatus.commandDisallowed.rawValue]) }
            connectAt = nil
            pendingUnknownConnect = false
            complete(op, [ok])
            let enhanced = allows(leMeta: LESubeventCode.enhancedConnectionComplete)
            if enhanced || allows(leMeta: LESubeventCode.connectionComplete) {
                events.append(BoardEvents.connectionComplete(status: .unknownConnectionIdentifier, handle: 0, central: true, peerAddress: 0,
                                                             peerRandom: false, interval: 0, enhanced: enhanced))
            }
        case HCIOpcode.leReadFilterAcceptListSize:
            complete(op, [ok, 8])
        case HCIOpcode.leReadRemoteFeatures:
            var fields = ByteReader(p)
            guard connected, p.count == 2, (try? fields.u16("Connection_Handle")) == handle else { return status(op, .unknownConnectionIdentifier) }
            status(op, .success)
            if allows(leMeta: LESubeventCode.readRemoteFeaturesComplete) { events.append(BoardEvents.remoteFeaturesComplete(handle: handle, features: cs.leFeatures | Self.boardFeatures)) }
        case HCIOpcode.leRand:
            var w = ByteWriter(capacity: 9)
            w.u8(ok)
            w.uint(random.next(), 8)
            complete(op, w.bytes)
        case HCIOpcode.leEnableEncryption:  // Handle, Random 8, EDIV 2, LTK 16
            guard role == .initiator, connected, p.count == 28 else { return status(op, connected ? .invalidHCICommandParameters : .unknownConnectionIdentifier) }
            status(op, .success)
            encryptionResult(Array(p[12..<28]))
        case HCIOpcode.leLongTermKeyRequestReply:  // Handle, LTK 16
            guard role == .reflector, connected, p.count == 18 else { return complete(op, [HCIStatus.commandDisallowed.rawValue]) }
            complete(op, status: .success, handle: handle)
            encryptionResult(Array(p[2..<18]))
        case HCIOpcode.leLongTermKeyRequestNegativeReply:
            guard role == .reflector, connected else { return complete(op, [HCIStatus.commandDisallowed.rawValue]) }
            complete(op, status: .success, handle: handle)
            encryptionResult(nil)
        case HCIOpcode.leReadSupportedStates:
            complete(op, [ok, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03, 0, 0])
        case HCIOpcode.leSetDataLength:
            complete(op, status: connected ? .success : .unknownConnectionIdentifier, handle: handle)
        case HCIOpcode.leReadSuggestedDefaultDataLength:  // 251 octets, 2120 µs
            complete(op, [ok, 251, 0, 0x48, 0x08])
        case HCIOpcode.leReadMaximumDataLength:
            complete(op, [ok, 251, 0, 0x48, 0x08, 251, 0, 0x48, 0x08])
        case HCIOpcode.leReadPHY:  // 1M both ways
            var w = ByteWriter(capacity: 5)
            w.u8(connected ? ok : HCIStatus.unknownConnectionIdentifier.rawValue)
            w.u16(handle)
            w.u8(1)  // TX_PHY
            w.u8(1)  // RX_PHY
            complete(op, w.bytes)
        case HCIOpcode.disconnect:
            guard connected, p.count == 3 else { return status(op, .unknownConnectionIdentifier) }
            status(op, .success)
            teardown(reason: .connectionTerminatedByLocalHost)
        case LECSSecurityEnable.opcode where connected && !encrypted:
            // CS security start runs on an encrypted link only [U: the spec's status for this
            // case is not in the public sources; Insufficient Security names the cause].
            status(op, .insufficientSecurity)
        default:
            // Version, features, BD_ADDR, LE event mask, buffer sizes, host feature, remote
            // version and every CS command: the CS controller answers (Unknown HCI Command for
            // anything it does not know).
            cs.handleCommand(bytes)
        }
    }

    private var pendingUnknownConnect = false

    private mutating func teardownSilently() {
        connected = false
        encrypted = false
        cs.connection.handle = 0xFFFF
    }

    /// LE features the board adds to the CS controller's: LE Encryption (0), Extended Reject
    /// Indication (2), Peripheral-initiated Features Exchange (3), LE Data Packet Length
    /// Extension (5) (Core 6.0 Vol 6 Part B §4.6).
    static let boardFeatures: UInt64 = 1 << 0 | 1 << 2 | 1 << 3 | 1 << 5

    /// Supported_Commands positions of the commands the board answers itself (Vol 4 Part E §6.27).
    static let boardCommands: [(octet: Int, bit: Int)] = [
        (0, 5), (2, 7),  // Disconnect, Read Remote Version Information
        (10, 5), (10, 6),  // Set Controller To Host Flow Control, Host Buffer Size
        (14, 7),  // Read Buffer Size
        (22, 2),  // Set Event Mask Page 2
        (24, 5), (24, 6),  // Read / Write LE Host Support
        (25, 4), (25, 5), (25, 6), (25, 7),  // LE Set Random Address, Adv Parameters, Adv Tx Power, Adv Data
        (26, 0), (26, 1), (26, 2), (26, 3), (26, 4), (26, 5), (26, 6), (26, 7),  // scan response … clear filter accept list
        (27, 0), (27, 1), (27, 5), (27, 7),  // add/remove filter accept list, read remote features, LE Rand
        (28, 0), (28, 1), (28, 2), (28, 3),  // enable encryption, LTK reply / negative reply, supported states
        (33, 6), (33, 7), (34, 0), (35, 3), (35, 4), (35, 5),  // data length, PHY
    ]
}
