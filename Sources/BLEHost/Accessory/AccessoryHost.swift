import ReflectorFirmware

/// The accessory's Bluetooth host on a real controller: what a phone finds, pairs with and
/// ranges. It is a composition over one `HostCore`: the controller's set-up
/// (`ControllerSetup`), advertising (`Advertiser`), per connection the GATT database with the
/// Ranging Service (`AccessoryLink`: ATT server and `RASServer`), SMP as responder with bonds
/// (`AccessoryHost+Security`), and the reflector's side of CS (`ReflectorProcedures`: LE CS
/// Set Default Settings on each connection, every procedure reported, its RAS data served).
/// A controller without Channel Sounding still advertises, pairs and serves GATT: the host
/// says why CS is unavailable and sends no CS command the controller does not list.
///
/// Pure: HCI packets in (`handleEvent`, `handleACL`), HCI packets out (`nextCommand`,
/// `nextACL`), time (`tick`, and with every packet), `Output`s for the tool; bonds in, new
/// ones out (the tool keeps the bond file).
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
        /// CS_SYNC antenna for LE CS Set Default Settings (1...4).
        public var syncAntenna: UInt8 = 1

        public init(identity: AccessoryDatabase.Identity, address: UInt64, irk: [UInt8]) {
            self.identity = identity
            self.address = address
            self.irk = irk
        }

        /// What the Ranging Service's characteristics need of the link: an authenticated key
        /// when this accessory pairs with a passkey (an unauthenticated bond must not read them).
        var rasSecurity: LinkSecurity { ioCapability == .noInputNoOutput ? .encrypted : .authenticated }
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
        /// Channel Sounding cannot run on this board (why); advertising, pairing and GATT go on.
        case channelSoundingUnavailable(String)
        /// The board is being set up again after a fault (links and advertising were lost; bonds kept).
        case controllerRestarted(ControllerFault)
        /// A procedure the reflector was measuring when its link or controller went: not reported.
        case procedureLost(counter: UInt16)
        /// Procedures the board reported nothing of (their counters were skipped): not reported.
        case proceduresMissed(first: UInt16, count: Int)
        /// A set-up command the accessory cannot do without failed.
        case failed(command: UInt16, HCIStatus)
        /// The board departs from the spec in a way the host tolerates, or sent an event that
        /// does not decode (dropped: the accessory's defaults stand); said once a set-up.
        case deviation(ControllerDeviation)
    }

    public let configuration: Configuration
    public internal(set) var bonds: [Bond]
    let random: RandomOctets
    public internal(set) var core = HostCore()
    private var setup = ControllerSetup()
    var advertiser: Advertiser
    private var procedures = ReflectorProcedures()
    /// The database every connection starts from.
    let base: AccessoryDatabase
    var backoff = PairingBackoff()
    /// The connection's own state (GATT, pairing, bond), beside the core's record of it.
    var link: AccessoryLink?
    /// Why CS is off, once said (it is said once per run).
    private var csUnavailable: String?

    public init(configuration: Configuration, bonds: [Bond] = [], random: RandomOctets) {
        self.configuration = configuration
        self.bonds = bonds
        self.random = random
        procedures = ReflectorProcedures()
        base = AccessoryDatabase(configuration.identity, realTimeRAS: configuration.realTimeRAS, rasSecurity: configuration.rasSecurity)
        advertiser = Advertiser(.init(address: configuration.address, name: configuration.identity.name, services: configuration.services,
                                      interval: configuration.advertisingInterval))
        _ = setup.advance(&core)
    }

    public var isConnected: Bool { link != nil }
    /// Where the Ranging Service's characteristics are in the database.
    public var rasHandles: RASServer.Handles { base.ras.handles }
    public var isEncrypted: Bool { core.connection?.encrypted ?? false }
    /// The command sent and not yet answered.
    public var unansweredOpcode: UInt16? { core.scheduler.outstanding?.opcode }
    /// Why Channel Sounding cannot run on this board, if it cannot.
    public var channelSoundingUnavailable: String? { csUnavailable }

    /// Keeps a bond made elsewhere (provisioned out of band, or restored): the peer it names
    /// encrypts with its key on its next connection. It replaces a bond of the same peer.
    public mutating func remember(_ bond: Bond) {
        bonds.removeAll { $0.peer == bond.peer }
        bonds.append(bond)
    }

    // MARK: Out

    public mutating func nextCommand() -> HCIPacket? { core.nextCommand() }

    public mutating func nextACL() -> [HCIPacket] {
        if var l = link {
            for pdu in l.takeOutgoing() { core.send(L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: pdu.encode())) }
            link = l
        }
        return core.nextACL()
    }

    // MARK: In

    public mutating func handleEvent(_ packet: HCIPacket, now: Double) -> [Output] {
        let event = core.receive(packet, now: now)
        var out: [Output] = []
        for o in setup.handle(event, &core) {
            switch o {
            case .ready:
                if let why = setup.channelSoundingUnavailable { out += csIsUnavailable(why) }
                out += advertiser.start(&core).map(Self.output)
            case let .refused(step, status): out.append(.failed(command: step.opcode, status))
            }
        }
        out += advertiser.handle(event, &core).map(Self.output)
        switch event {
        case .connected(let c) where c.status == .success && c.role == .peripheral:
            out += connected(c, now: now)
        case .longTermKeyRequested(let e):
            out += keyRequested(e)
        case let .encryptionChanged(handle, _, enabled) where handle == core.connection?.handle || handle == link?.handle:
            out += encryptionChanged(enabled: enabled, now: now)
        case .disconnected(let handle, let reason) where handle == link?.handle:
            if let l = link { out += keepConfigurations(of: l) }
            link = nil
            if let lost = procedures.reset() { out.append(.procedureLost(counter: lost)) }
            out.append(.disconnected(reason))
        case .hardwareError(let code):
            out += restartController(.hardwareError(code: code))
        case .commandAnswered(let a) where a.opcode == LECSSetDefaultSettings.opcode && a.status != .success:
            out += csIsUnavailable("the board refused LE CS Set Default Settings: \(a.status) (0x\(String(a.status.rawValue, radix: 16)))")
        case .csConfigured(let e):
            _ = procedures.configComplete(e)
        case .csProceduresEnabled(let e):
            _ = procedures.procedureEnableComplete(e)
        case .csSubeventResult(let p):
            for o in procedures.subeventResult(p) {
                switch o {
                case .measured(let results): out.append(.procedure(ProcedureReport(results)))
                case let .rangingData(counter, segments): link?.publish(counter: counter, segments: segments)
                case let .missed(first, count): out.append(.proceduresMissed(first: first, count: count))
                case .configured, .procedures: break
                }
            }
        default:
            break
        }
        return out + core.takeDeviations().map { .deviation($0) }
    }

    public mutating func handleACL(_ packet: HCIPacket, now: Double) -> [Output] {
        var out: [Output] = []
        for f in core.receiveACL(packet, now: now) {
            switch f.channel {
            case L2CAPFrame.attributeProtocol: attReceived(f.payload, now: now)
            case L2CAPFrame.securityManager: out += smpReceived(f.payload, now: now)
            case L2CAPFrame.signalling: signallingReceived(f.payload)
            default: break
            }
        }
        return out
    }

    /// Starts the controller over after `fault`: Reset and the whole set-up again, then
    /// advertising; the link, its pairing and any procedure in flight are gone (and said so),
    /// the bonds (with the link's client configuration) are kept.
    public mutating func restartController(_ fault: ControllerFault) -> [Output] {
        var out: [Output] = []
        if let l = link { out += keepConfigurations(of: l) }
        link = nil
        if let lost = procedures.reset() { out.append(.procedureLost(counter: lost)) }
        core = HostCore()
        setup = ControllerSetup()
        advertiser.restart()
        _ = setup.advance(&core)
        return out + [.controllerRestarted(fault)]
    }

    /// Time passes: the RAS ACK timer, the SMP timeout.
    public mutating func tick(now: Double) -> [Output] {
        core.advance(to: now)
        guard var l = link else { return [] }
        l.tick(now: now)
        link = l
        return pairingTick(now: now)
    }

    // MARK: Connections

    private mutating func connected(_ c: ConnectionEstablished, now: Double) -> [Output] {
        let bond = bonds.first { $0.matches(c.peer) }
        link = AccessoryLink(handle: c.handle, peer: c.peer, database: base, bond: bond, rasSecurity: configuration.rasSecurity)
        if csUnavailable == nil {
            if !core.scheduler.enqueue(ReflectorProcedures.defaultSettings(connectionHandle: c.handle, syncAntenna: configuration.syncAntenna)) {
                return [.connected(peer: c.peer)] + csIsUnavailable("the board does not list LE CS Set Default Settings among its supported commands")
            }
        }
        return [.connected(peer: c.peer)]
    }

    /// At the end of a bonded client's connection: its configuration descriptors into its bond.
    private mutating func keepConfigurations(of l: AccessoryLink) -> [Output] {
        guard let bond = l.bond, let i = bonds.firstIndex(where: { $0.peer == bond.peer }) else { return [] }
        let kept = l.configurations
        guard kept != bonds[i].configurations else { return [] }
        bonds[i].configurations = kept
        return [.bondUpdated(bonds[i])]
    }

    private mutating func attReceived(_ bytes: [UInt8], now: Double) {
        guard var l = link else { return }
        let refusedForSecurity = l.receiveATT(bytes, security: linkSecurity, now: now)
        procedures.attMTU = l.attMTU
        link = l
        // A protected characteristic touched on an unsecured link: ask the phone to pair (or encrypt).
        if refusedForSecurity, !isEncrypted { requestSecurity() }
    }

    /// LE signalling (Core 6.0 Vol 3 Part A §4): every request is refused with Command Reject
    /// (Command Not Understood), as nothing on it is supported; responses and rejects are dropped.
    private mutating func signallingReceived(_ bytes: [UInt8]) {
        guard let reject = L2CAPSignalling.reject(bytes) else { return }
        core.send(L2CAPFrame(channel: L2CAPFrame.signalling, payload: reject))
    }

    private mutating func csIsUnavailable(_ why: String) -> [Output] {
        guard csUnavailable == nil else { return [] }
        csUnavailable = why
        return [.channelSoundingUnavailable(why)]
    }

    private static func output(_ o: Advertiser.Output) -> Output {
        switch o {
        case .advertising: .advertising
        case let .failed(command, status): .failed(command: command, status)
        }
    }
}
