import ReflectorFirmware

/// The phone's whole host on one board, a composition over the core `InitiatorHost` keeps:
/// the CS initiator's set-up and procedures (`InitiatorHost`), SMP as initiator on the link it
/// makes (`PairingSession`, KeyboardDisplay; a bond made earlier encrypts a
/// reconnection instead), and the RAS client for the reflector's Ranging Service (`RASClient`,
/// subscribed when the configuration goes without inline PCT, before procedures start). What
/// `range` runs on a real board and the emulated phone of `serve` runs in the air.
///
/// Pure: HCI packets in, HCI packets out, time with each call and `tick` (the SMP timeout).
public struct PhoneHost: Sendable {
    public enum Output: Sendable, Equatable {
        /// What the initiator host reported (procedures, failures, a lost link).
        case host(InitiatorHost.Output)
        case connected(PairingAddress)
        /// The reflector lacks what an iPhone requires (reported when it is ranged all the same).
        case notIOSCompliant([IOSRequirement])
        /// The reflector's results come over RAS, in this mode.
        case rangingData(RASClient.Mode)
        /// Without inline PCT, the reflector's Ranging Service cannot serve its results: why.
        case rangingDataUnavailable(String)
        /// The reflector's RAS dropped or refused a procedure's data.
        case rangingDataLost(rangingCounter: UInt16, String)
        /// The user must type the passkey the reflector shows (`enterPasskey`).
        case passkeyNeeded
        /// Numeric Comparison: this number (`confirmsNumbers` takes it as matching).
        case compare(UInt32)
        case paired(PairingResult)
        /// Encrypted with a bond made earlier (no new pairing).
        case encryptedWithBond
        case pairingFailed(SMPFailureReason, byPeer: Bool)
        /// The board is being set up again after a fault: the link and the procedures in flight
        /// are gone (each reported lost); the phone finds the reflector again and encrypts
        /// with the bond it holds.
        case controllerRestarted(ControllerFault)
    }

    public let setup: InitiatorHost.Setup
    public private(set) var host: InitiatorHost
    /// Bonds made (and given): a reconnection to one of these encrypts with its key.
    public private(set) var bonds: [Bond]
    /// Numeric Comparison answered "matches" without asking (a bench tool, an emulated phone).
    public var confirmsNumbers = true
    /// The link's handle while it is up.
    public var connectedHandle: UInt16? { host.core.connection?.handle }
    private let random: RandomOctets
    private let irk: [UInt8]
    private var ras: RASClient?
    private var needsRAS = false
    private var rasUnavailable: String?
    private var pairing: PairingSession?
    /// The last event that did not decode (its name and why), across set-ups: the same one
    /// again after the board was set up anew is the controller's own, not the line's.
    private var lastUndecodable: String?

    /// `bonds` kept from earlier runs, and `irk` the phone's identity key they were made with
    /// (nil: a fresh one, for a phone without stored bonds).
    public init(setup: InitiatorHost.Setup, bonds: [Bond] = [], irk: [UInt8]? = nil, random: RandomOctets) {
        self.setup = setup
        host = InitiatorHost(setup: setup)
        self.bonds = bonds
        self.random = random
        self.irk = irk ?? random.octets(16)
    }

    /// Starts over after a lost link: a fresh initiator host; the bonds stay.
    public mutating func restart() {
        host = InitiatorHost(setup: setup)
        dropLink()
    }

    /// Starts the controller over after `fault`: a fresh initiator host (Reset, the set-up, the
    /// scan, the connection, encryption with the bond); the bonds stay.
    public mutating func restartController(_ fault: ControllerFault) -> [Output] {
        let lost = host.proceduresInFlight
        restart()
        return [.controllerRestarted(fault)] + lost.map { .host(.procedureLost(counter: $0)) }
    }

    private mutating func dropLink() {
        ras = nil
        pairing = nil
        needsRAS = false
        rasUnavailable = nil
    }

    public mutating func nextCommand() -> HCIPacket? { host.nextPacket() }
    public mutating func retryProcedureEnable() { host.retryProcedureEnable() }

    /// Queues a command of the phone's own (a Disconnect) before the set-up's next.
    public mutating func send(_ command: some HCICommand) { host.core.scheduler.enqueue(command, urgent: true) }

    /// ACL packets for the board now (SMP and the RAS client's requests, within its buffers).
    public mutating func nextACL() -> [HCIPacket] {
        while let pdu = ras?.nextPDU() { host.core.send(L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: pdu.encode())) }
        return host.core.nextACL()
    }

    /// One event from the board.
    public mutating func handleEvent(_ packet: HCIPacket, now time: Double) -> [Output] {
        let handle = connectedHandle
        let (event, outputs) = host.receive(packet, now: time)
        var out = translate(outputs, now: time)
        switch event {
        case let .encryptionChanged(h, _, enabled) where h == handle:
            // Encryption on: key distribution goes on, and the Ranging Service is readable now.
            if var p = pairing {
                let actions = p.encryptionChanged(enabled: enabled, now: time)
                pairing = p
                out += perform(actions, now: time)
            }
            if enabled, ras == nil { ras = RASClient() }
        case .disconnected(let h, _) where h == handle:
            dropLink()
        default:
            break
        }
        return out
    }

    /// One event from the board, as octets (no H4 indicator).
    public mutating func handleEvent(_ bytes: [UInt8], now time: Double) -> [Output] {
        guard let packet = try? HCIPacket(event: bytes) else { return translate(host.handleEvent(bytes), now: time) }
        return handleEvent(packet, now: time)
    }

    /// An ACL packet from the board: SMP reaches the pairing, ATT the RAS client.
    public mutating func handleACL(_ packet: HCIPacket, now time: Double) -> [Output] {
        var out: [Output] = []
        for f in host.core.receiveACL(packet, now: time) {
            if f.channel == L2CAPFrame.securityManager, var p = pairing {
                let actions = p.receive(f.payload, now: time)
                pairing = p
                out += perform(actions, now: time)
                continue
            }
            guard f.channel == L2CAPFrame.attributeProtocol, let pdu = try? ATTPDU.decode(f.payload), var client = ras else { continue }
            let events = client.receive(pdu)
            ras = client
            for e in events { out += handleRAS(e, now: time) }
        }
        return out
    }

    /// The user typed the passkey the reflector shows.
    public mutating func enterPasskey(_ value: UInt32, now time: Double) -> [Output] {
        guard var p = pairing else { return [] }
        let actions = p.enterPasskey(value, now: time)
        pairing = p
        return perform(actions, now: time)
    }

    /// Time passes: the SMP timeout; what the initiator's last step gave.
    public mutating func tick(now time: Double) -> [Output] {
        host.core.advance(to: time)
        let out = translate(host.tick(), now: time)
        guard var p = pairing else { return out }
        let actions = p.tick(now: time)
        pairing = p
        return out + perform(actions, now: time)
    }

    // MARK: Security

    /// A new link without a bond key: the bond made earlier, else pairing.
    private mutating func secure(peer: PairingAddress, now: Double) -> [Output] {
        if let bond = bonds.first(where: { $0.matches(peer) }) {
            host.encrypt(with: bond.longTermKey)
            return [.encryptedWithBond]
        }
        guard let keys = try? P256KeyPair.generate() else { return [.pairingFailed(.unspecifiedReason, byPeer: false)] }
        let local = PairingAddress(host.localAddress ?? 0, random: false)
        var p = PairingSession(role: .initiator, configuration: .init(ioCapability: .keyboardDisplay, identity: PairingIdentity(irk: Key128(wire: irk), address: local)),
                               local: local, peer: peer, keyPair: keys, random: random, now: now)
        let actions = p.start(now: now)
        pairing = p
        return perform(actions, now: now)
    }

    private mutating func perform(_ actions: [PairingSession.Action], now: Double) -> [Output] {
        var out: [Output] = []
        for a in actions {
            switch a {
            case .send(let pdu): host.core.send(L2CAPFrame(channel: L2CAPFrame.securityManager, payload: pdu.encode()))
            case .startEncryption(let key): host.encrypt(with: key.wire)
            case .requestPasskey: out.append(.passkeyNeeded)
            case .confirmNumber(let n):
                out.append(.compare(n))
                if confirmsNumbers, var p = pairing {
                    let more = p.confirmNumber(true, now: now)
                    pairing = p
                    out += perform(more, now: now)
                }
            case .paired(let r):
                bonds.removeAll { $0.matches(r.peerAddress) }
                bonds.append(Bond(r))
                out.append(.paired(r))
            case let .failed(reason, byPeer): out.append(.pairingFailed(reason, byPeer: byPeer))
            case .timedOut: out.append(.pairingFailed(.unspecifiedReason, byPeer: false))
            case .displayPasskey, .longTermKeyReady: break
            }
        }
        return out
    }

    // MARK: Ranging data

    private mutating func handleRAS(_ e: RASClient.Event, now: Double) -> [Output] {
        switch e {
        case .found: return []  // subscribed only when the configuration goes without inline PCT
        case .ready(let mode):
            host.rangingDataClientReady()
            return [.rangingData(mode)]
        case .segment(let bytes): return translate(host.receiveRangingData(bytes), now: now)
        case .overwritten(let counter): return [.rangingDataLost(rangingCounter: counter, "the reflector overwrote it before it was fetched")]
        case let .refused(counter, code): return [.rangingDataLost(rangingCounter: counter, "the RAS Control Point answered \(code)")]
        case .unavailable(let why):
            rasUnavailable = why
            return needsRAS ? [.rangingDataUnavailable(why)] : []
        }
    }

    /// The initiator host's outputs: a new link is secured, and its call for the RAS client answered here.
    private mutating func translate(_ outputs: [InitiatorHost.Output], now: Double) -> [Output] {
        var out: [Output] = []
        for o in outputs {
            switch o {
            case .connected(let peer):
                out.append(.connected(peer))
                if setup.connect?.longTermKey.isEmpty == true { out += secure(peer: peer, now: now) }
            case .notIOSCompliant(let unmet):
                out.append(.notIOSCompliant(unmet))
            case .failed(.controllerFault(let fault)):
                out += restartController(fault)
            case .failed(.malformedEvent(let what)):
                // An octet garbled inside an event: the board is started over rather than the run;
                // the same event undecodable again is the controller's, and a reset would only loop.
                let why = what.split(separator: ";").first.map(String.init) ?? what
                if lastUndecodable == why {
                    out.append(.host(.failed(.malformedEvent(what + "; the board sent it again after being set up anew, so it is the "
                        + "controller's own event, not octets garbled on the line"))))
                } else {
                    lastUndecodable = why
                    out += restartController(.malformedEvent(what))
                }
            case .procedure:
                lastUndecodable = nil
                out.append(.host(o))
            case .needsRangingData:
                needsRAS = true
                if let why = rasUnavailable ?? (ras == nil ? "the link is not encrypted, so it cannot be read" : nil) {
                    out.append(.rangingDataUnavailable(why))
                    continue
                }
                ras?.subscribe()
            default:
                out.append(.host(o))
            }
        }
        return out
    }
}
