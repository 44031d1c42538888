import ReflectorFirmware

/// The accessory's Bluetooth host on a real controller: what a phone finds, pairs with and
/// ranges. It readies the controller (through `ReflectorHostApp`: reset, event masks with
/// every CS event, CS host support; then its own: LE buffers, the static random address,
/// connectable advertising with the name and the Ranging Service UUID), and on each
/// connection runs L2CAP's fixed channels: SMP as responder (`PairingSession`,
/// with a Security Request when the phone touches a protected characteristic), ATT with the
/// accessory's GATT database (`AccessoryDatabase`, the Ranging Service's `RASServer` fed the
/// reflector's ranging data), and LE signalling (Command Reject: nothing is supported);
/// answers LE Long Term Key Request from the pairing or a bond (the phone recognised by its
/// identity or resolvable private address), enables the reflector role (LE CS Set Default
/// Settings) and reports every procedure the reflector measured. It advertises again after
/// each disconnection.
///
/// Pure: HCI packets in (`handleEvent`, `handleACL`), HCI packets out (`nextCommand`,
/// `nextACL`), time (`tick`), `Output`s for the tool; bonds in, new ones out (the tool keeps
/// the bond file).
public struct AccessoryHost: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var identity: AccessoryDatabase.Identity
        /// The static random address it advertises from (two top bits 11).
        public var address: UInt64
        /// The accessory's IRK, distributed with its identity address.
        public var irk: [UInt8]
        /// Extra 16-bit service UUIDs to advertise (an app's AccessorySetupKit filter).
        public var services: [UInt16] = []
        public var ioCapability: IOCapability = .noInputNoOutput
        /// The passkey shown when `ioCapability` displays one (nil: a fresh random one per pairing).
        public var fixedPasskey: UInt32?
        /// New pairings are accepted; otherwise only bonded phones connect securely.
        public var pairable = true
        /// A central without LE Secure Connections may pair with LE legacy pairing (else it is
        /// refused with Authentication Requirements, as Secure Connections Only mode does).
        public var allowsLegacyPairing = false
        public var realTimeRAS = true
        /// Advertising interval, 0.625 ms units (100–150 ms).
        public var advertisingInterval: ClosedRange<UInt16> = 0x00A0...0x00F0

        public init(identity: AccessoryDatabase.Identity, address: UInt64, irk: [UInt8]) {
            self.identity = identity
            self.address = address
            self.irk = irk
        }
    }

    public enum Output: Sendable, Equatable {
        /// Advertising is on (after set-up, and after each disconnection).
        case advertising
        case connected(peer: PairingAddress)
        /// Show this passkey; the phone's user types it.
        case displayPasskey(UInt32)
        case paired(PairingResult)
        case pairingFailed(SMPFailureReason, byPeer: Bool)
        /// The link is encrypted: with this bond's key (a reconnection), or with a new pairing's (nil).
        case encrypted(bond: Bond?)
        /// A bonded-or-not peer asked for a key this accessory does not have (Negative Reply).
        case unknownKey
        /// A bond changed (its client configuration at the end of a connection): keep it.
        case bondUpdated(Bond)
        case procedure(ProcedureReport)
        case disconnected(HCIStatus)
        /// A set-up command failed.
        case failed(command: UInt16, HCIStatus)
    }

    public let configuration: Configuration
    public private(set) var bonds: [Bond]
    private let random: RandomOctets
    private var app: ReflectorHostApp
    private var base: AccessoryDatabase
    private var backoff = PairingBackoff()
    /// Commands of this host's own: set-up first, urgent ones (key replies) before anything.
    private var own: [HCIPacket] = []
    private var urgent: [HCIPacket] = []
    private var outstanding: UInt16?
    private var aclBuffers = (length: 27, count: 1)

    /// The connection's state, from LE Connection Complete to Disconnection Complete.
    struct Connection: Sendable {
        var handle: UInt16
        var peer: PairingAddress
        var link: L2CAPLink
        var att: ATTServer
        var ras: RASServer
        var pairing: PairingSession?
        var pairingLTK: [UInt8]?
        var bond: Bond?
        var encrypted = false
        var securityRequested = false
        var attOut: [ATTPDU] = []
    }
    private var connection: Connection?

    public init(configuration: Configuration, bonds: [Bond] = [], random: RandomOctets) {
        self.configuration = configuration
        self.bonds = bonds
        self.random = random
        app = ReflectorHostApp(connectionHandle: 0, waitsForConnection: true)
        base = AccessoryDatabase(configuration.identity, realTimeRAS: configuration.realTimeRAS)
        own = [
            HCIPacket(opcode: HCIOpcode.leReadBufferSize, parameters: []),
            LESetRandomAddress(address: configuration.address).packet,
            LESetAdvertisingParameters(intervalMin: configuration.advertisingInterval.lowerBound, intervalMax: configuration.advertisingInterval.upperBound,
                                       advertisingType: 0, ownAddressType: 1).packet,
            LESetAdvertisingData(data: Self.advertisingData(configuration)).packet,
            LESetScanResponseData(data: Self.scanResponse(configuration)).packet,
            LESetAdvertisingEnable(enable: true).packet,
        ]
    }

    public var isConnected: Bool { connection != nil }
    /// Where the Ranging Service's characteristics are in the database.
    public var rasHandles: RASServer.Handles { base.ras.handles }
    public var isEncrypted: Bool { connection?.encrypted ?? false }
    /// The command sent and not yet answered.
    public var unansweredOpcode: UInt16? { outstanding }

    // MARK: Advertising

    /// Flags (LE General Discoverable, BR/EDR not supported), the complete list of 16-bit
    /// service UUIDs (the Ranging Service first), and the name as far as it fits in 31 octets.
    static func advertisingData(_ c: Configuration) -> [UInt8] {
        var data: [UInt8] = [0x02, 0x01, 0x06]
        let uuids = [RASUUID.rangingService] + c.services.filter { $0 != RASUUID.rangingService }
        let listed = uuids.prefix(12)
        data += [UInt8(1 + 2 * listed.count), 0x03] + listed.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let name = Array(c.identity.name.utf8)
        let room = 31 - data.count - 2
        if room > 0, !name.isEmpty {
            let fits = name.count <= room
            let part = Array(name.prefix(room))
            data += [UInt8(1 + part.count), fits ? 0x09 : 0x08] + part
        }
        return data
    }

    /// The complete name, in the scan response.
    static func scanResponse(_ c: Configuration) -> [UInt8] {
        let name = Array(c.identity.name.utf8.prefix(29))
        return name.isEmpty ? [] : [UInt8(1 + name.count), 0x09] + name
    }

    // MARK: Commands and ACL out

    public mutating func nextCommand() -> HCIPacket? {
        guard outstanding == nil else { return nil }
        let next: HCIPacket?
        if !urgent.isEmpty { next = urgent.removeFirst() }
        else if let bytes = app.nextCommand() { next = try? HCIPacket(indicator: .command, bytes: bytes) }
        else if !own.isEmpty { next = own.removeFirst() }
        else { next = nil }
        outstanding = next?.opcode
        return next
    }

    public mutating func nextACL() -> [HCIPacket] {
        guard var c = connection else { return [] }
        for pdu in c.attOut { c.link.send(L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: pdu.encode())) }
        c.attOut = []
        let packets = c.link.sendable()
        connection = c
        return packets
    }

    // MARK: Events

    public mutating func handleEvent(_ packet: HCIPacket, now: Double) -> [Output] {
        var out: [Output] = []
        connection?.link.handleEvent(packet)
        if packet.eventCode == HCIEventCode.commandComplete || packet.eventCode == HCIEventCode.commandStatus {
            out += commandAnswered(packet)
        }
        for o in app.handleEvent(packet.bytes) {
            switch o {
            case .failed(let op, let status): out.append(.failed(command: op, status))
            case .measured(let p): out.append(.procedure(ProcedureReport(p)))
            case let .rangingData(counter, segments):
                guard var c = connection else { break }
                c.attOut += c.ras.publish(counter: counter, segments: segments, server: &c.att)
                connection = c
            case .configured, .procedures, .disconnected: break
            }
        }
        if let e = try? LEConnectionComplete.decode(packet: packet) {
            out += connected(status: e.status, handle: e.connectionHandle, role: e.role, peer: PairingAddress(e.peerAddress, random: e.peerAddressType & 1 == 1), now: now)
        } else if let e = try? LEEnhancedConnectionComplete.decode(packet: packet) {
            out += connected(status: e.status, handle: e.connectionHandle, role: e.role, peer: PairingAddress(e.peerAddress, random: e.peerAddressType & 1 == 1), now: now)
        } else if let e = try? LELongTermKeyRequest.decode(packet: packet), let c = connection, e.connectionHandle == c.handle {
            out += keyRequested(e)
        } else if let e = try? EncryptionChange.decode(packet: packet), var c = connection, e.connectionHandle == c.handle {
            c.encrypted = e.status == .success && e.encryptionEnabled != 0
            connection = c
            if c.encrypted { out.append(.encrypted(bond: c.pairingLTK == nil ? c.bond : nil)) }
            if var p = c.pairing {
                let actions = p.encryptionChanged(enabled: c.encrypted, now: now)
                connection?.pairing = p
                out += perform(actions, now: now)
            }
        } else if packet.eventCode == DisconnectionComplete.eventCode, let e = try? DisconnectionComplete.decode(packet: packet),
                  let c = connection, e.connectionHandle == c.handle {
            connection = nil
            out += keepConfigurations(of: c)
            out.append(.disconnected(e.reason))
            own.append(LESetAdvertisingEnable(enable: true).packet)
        }
        return out
    }

    private mutating func commandAnswered(_ packet: HCIPacket) -> [Output] {
        let p = packet.parameters
        // Command Complete: Num_HCI_Command_Packets, opcode, return parameters; Command Status: status, Num, opcode.
        let isComplete = packet.eventCode == HCIEventCode.commandComplete
        guard p.count >= (isComplete ? 3 : 4) else { return [] }
        let opcode = isComplete ? UInt16(p[1]) | UInt16(p[2]) << 8 : UInt16(p[2]) | UInt16(p[3]) << 8
        let status = HCIStatus(rawValue: isComplete ? (p.count > 3 ? p[3] : 0) : p[0]) ?? .unspecifiedError
        if opcode == outstanding { outstanding = nil }
        if opcode == HCIOpcode.leReadBufferSize, isComplete, p.count >= 7, status == .success {
            let length = Int(UInt16(p[4]) | UInt16(p[5]) << 8)
            if length > 0 { aclBuffers = (length, max(1, Int(p[6]))) }
        }
        if opcode == HCIOpcode.leSetAdvertisingEnable, status == .success, connection == nil { return [.advertising] }
        // The app reports its own failures; this host's set-up commands are reported here.
        let mine: Set<UInt16> = [HCIOpcode.leReadBufferSize, HCIOpcode.leSetRandomAddress, HCIOpcode.leSetAdvertisingParameters,
                                  HCIOpcode.leSetAdvertisingData, HCIOpcode.leSetScanResponseData]
        if status != .success, mine.contains(opcode) { return [.failed(command: opcode, status)] }
        return []
    }

    private mutating func connected(status: HCIStatus, handle: UInt16, role: UInt8, peer: PairingAddress, now: Double) -> [Output] {
        guard status == .success, role == 1 else { return [] }
        var db = base
        let bond = bonds.first { $0.matches(peer) }
        // A bonded client's configuration descriptors as it left them (§3.3.3.3).
        for (h, v) in bond?.configurations ?? [:] where db.database.attribute(h)?.type == .clientCharacteristicConfiguration {
            db.database.setValue([UInt8(v & 0xFF), UInt8(v >> 8)], at: h)
        }
        let att = ATTServer(database: db.database)
        db.ras.reset()
        connection = Connection(handle: handle, peer: peer, link: L2CAPLink(connectionHandle: handle, bufferLength: aclBuffers.length, bufferCount: aclBuffers.count),
                                att: att, ras: db.ras, bond: bond)
        return [.connected(peer: peer)]
    }

    /// At the end of a bonded client's connection: its configuration descriptors into its bond.
    private mutating func keepConfigurations(of c: Connection) -> [Output] {
        guard let bond = c.bond, let i = bonds.firstIndex(where: { $0.peer == bond.peer }) else { return [] }
        var kept: [UInt16: UInt16] = [:]
        for a in c.att.database.attributes where a.type == .clientCharacteristicConfiguration && a.value.count == 2 {
            let v = UInt16(a.value[0]) | UInt16(a.value[1]) << 8
            if v != 0 { kept[a.handle] = v }
        }
        guard kept != bonds[i].configurations else { return [] }
        bonds[i].configurations = kept
        return [.bondUpdated(bonds[i])]
    }

    /// LE Long Term Key Request: this pairing's key (EDIV 0, Rand 0), else the bond's, else none.
    private mutating func keyRequested(_ e: LELongTermKeyRequest) -> [Output] {
        guard let c = connection else { return [] }
        // This pairing's key (the SC LTK, or legacy pairing's STK: EDIV 0, Rand 0), else the bond's by its EDIV and Rand.
        let zero = e.encryptedDiversifier == 0 && e.randomNumber == 0
        let bondKey = c.bond.flatMap { $0.ediv == e.encryptedDiversifier && $0.rand == e.randomNumber ? $0.longTermKey : nil }
        if let key = (zero ? c.pairingLTK : nil) ?? bondKey {
            urgent.append(LELongTermKeyRequestReply(connectionHandle: c.handle, longTermKey: key).packet)
            return []
        }
        urgent.append(LELongTermKeyRequestNegativeReply(connectionHandle: c.handle).packet)
        return [.unknownKey]
    }

    // MARK: ACL in

    public mutating func handleACL(_ packet: HCIPacket, now: Double) -> [Output] {
        guard var c = connection else { return [] }
        let frames = c.link.receive(packet)
        connection = c
        var out: [Output] = []
        for f in frames {
            switch f.channel {
            case L2CAPFrame.attributeProtocol: attReceived(f.payload)
            case L2CAPFrame.securityManager: out += smpReceived(f.payload, now: now)
            case L2CAPFrame.signalling: signallingReceived(f.payload)
            default: break
            }
        }
        return out
    }

    private mutating func attReceived(_ bytes: [UInt8]) {
        guard var c = connection else { return }
        defer { connection = c }
        if let pdu = try? ATTPDU.decode(bytes) {
            if pdu == .confirmation {
                c.attOut += c.ras.confirmed()
                return
            }
            let (refusal, drop) = c.ras.screen(pdu, server: c.att)
            if drop {
                if let r = refusal { c.attOut.append(r) }
                return
            }
        }
        let reply = c.att.receive(bytes, encrypted: c.encrypted)
        if let r = reply.response {
            c.attOut.append(r)
            // A protected characteristic touched on an unsecured link: ask the phone to pair (or encrypt).
            if case .errorResponse(_, _, let e) = r, e == .insufficientEncryption || e == .insufficientAuthentication, !c.encrypted, !c.securityRequested {
                c.securityRequested = true
                c.link.send(L2CAPFrame(channel: L2CAPFrame.securityManager, payload: SMPPDU.securityRequest([.bonding, .secureConnections]).encode()))
            }
        }
        app.attMTU = Int(c.att.mtu)
        if let w = reply.written { c.attOut += c.ras.written(handle: w.handle, value: w.value, server: &c.att, now: 0) }
    }

    private mutating func smpReceived(_ bytes: [UInt8], now: Double) -> [Output] {
        guard let c = connection else { return [] }
        if c.pairing == nil || c.pairing?.isFinished == true {
            // A new pairing starts with Pairing Request; refused when not pairable or too soon after a failure.
            guard bytes.first == 0x01 else { return [] }
            if !configuration.pairable { return sendSMP(.pairingFailed(.pairingNotSupported)) }
            if !backoff.allows(c.peer, now: now) { return sendSMP(.pairingFailed(.repeatedAttempts)) }
            guard let keys = try? P256KeyPair.generate() else { return sendSMP(.pairingFailed(.unspecifiedReason)) }
            let local = PairingAddress(configuration.address, random: true)
            var config = PairingSession.Configuration(ioCapability: configuration.ioCapability, identity: PairingIdentity(irk: Key128(wire: configuration.irk), address: local))
            config.bonding = true
            config.fixedPasskey = configuration.fixedPasskey
            // A central without LE Secure Connections pairs with legacy pairing, when allowed.
            config.legacy = configuration.allowsLegacyPairing ? .allowed : .refused
            let session = PairingSession(role: .responder, configuration: config, local: local, peer: c.peer, keyPair: keys, random: random, now: now)
            connection?.pairing = session
            connection?.pairingLTK = nil
        }
        guard var p = connection?.pairing else { return [] }
        let actions = p.receive(bytes, now: now)
        connection?.pairing = p
        return perform(actions, now: now)
    }

    private mutating func sendSMP(_ pdu: SMPPDU) -> [Output] {
        connection?.link.send(L2CAPFrame(channel: L2CAPFrame.securityManager, payload: pdu.encode()))
        return []
    }

    private mutating func perform(_ actions: [PairingSession.Action], now: Double) -> [Output] {
        var out: [Output] = []
        for a in actions {
            switch a {
            case .send(let pdu): _ = sendSMP(pdu)
            case .displayPasskey(let v): out.append(.displayPasskey(v))
            case .longTermKeyReady(let key): connection?.pairingLTK = key.wire
            case .paired(let r):
                if let peer = connection?.peer { backoff.succeeded(peer) }
                if r.bonded {
                    let bond = Bond(r)
                    bonds.removeAll { $0.peer == bond.peer || $0.matches(bond.peer) }
                    bonds.append(bond)
                    connection?.bond = bond
                }
                out.append(.paired(r))
            case let .failed(reason, byPeer):
                if let peer = connection?.peer { backoff.failed(peer, now: now) }
                out.append(.pairingFailed(reason, byPeer: byPeer))
            case .timedOut:
                out.append(.pairingFailed(.unspecifiedReason, byPeer: false))
                if let h = connection?.handle { urgent.append(Disconnect(connectionHandle: h, reason: .authenticationFailure).packet) }
            case .requestPasskey, .confirmNumber, .startEncryption:
                // A responder with a display only: it neither types nor compares, and never starts encryption.
                break
            }
        }
        return out
    }

    /// LE signalling (Core 6.0 Vol 3 Part A §4): every request is refused with Command Reject
    /// (Command Not Understood), as nothing on it is supported; responses and rejects are dropped.
    private mutating func signallingReceived(_ bytes: [UInt8]) {
        guard bytes.count >= 4 else { return }
        let code = bytes[0], identifier = bytes[1]
        let responses: Set<UInt8> = [0x01, 0x07, 0x13, 0x15, 0x16, 0x18, 0x1A]
        guard !responses.contains(code), identifier != 0 else { return }
        connection?.link.send(L2CAPFrame(channel: L2CAPFrame.signalling, payload: [0x01, identifier, 0x02, 0x00, 0x00, 0x00]))
    }

    // MARK: Time

    public mutating func tick(now: Double) -> [Output] {
        guard var c = connection else { return [] }
        c.ras.tick(now: now)
        connection = c
        guard var p = c.pairing else { return [] }
        let actions = p.tick(now: now)
        connection?.pairing = p
        return perform(actions, now: now)
    }
}
