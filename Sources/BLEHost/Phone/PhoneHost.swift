import ReflectorFirmware

/// The phone's whole host on one board: `InitiatorHost` for the controller and Channel
/// Sounding, and beside it L2CAP's fixed channels on the link it makes: SMP as initiator
/// (`PairingSession`, KeyboardDisplay; a bond made earlier encrypts a reconnection
/// instead) and ATT for the reflector's Ranging Service (`RASClient`, subscribed when the
/// configuration goes without inline PCT, before procedures start). What `range` runs on a
/// real board and the emulated phone of `serve` runs in the air.
///
/// Pure: event and ACL bytes in, commands and ACL packets out; time (`tick`) for the SMP timeout.
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
    }

    public let setup: InitiatorHost.Setup
    public private(set) var host: InitiatorHost
    /// Bonds made (and given): a reconnection to one of these encrypts with its key.
    public private(set) var bonds: [Bond]
    /// Numeric Comparison answered "matches" without asking (a bench tool, an emulated phone).
    public var confirmsNumbers = true
    public private(set) var connectedHandle: UInt16?
    private let random: RandomOctets
    private let irk: [UInt8]
    private var link: L2CAPLink?
    private var ras: RASClient?
    private var needsRAS = false
    private var rasUnavailable: String?
    private var pairing: PairingSession?
    private var now = 0.0

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
        connectedHandle = nil
        dropLink()
    }

    private mutating func dropLink() {
        link = nil
        ras = nil
        pairing = nil
        needsRAS = false
        rasUnavailable = nil
    }

    public mutating func nextCommand() -> [UInt8]? { host.nextCommand() }
    public mutating func retryProcedureEnable() { host.retryProcedureEnable() }

    /// ACL packets for the board now (SMP and the RAS client's requests, within its buffers).
    public mutating func nextACL() -> [HCIPacket] {
        guard var l = link else { return [] }
        while let pdu = ras?.nextPDU() { l.send(L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: pdu.encode())) }
        let packets = l.sendable()
        link = l
        return packets
    }

    /// One event from the board (its octets, no H4 indicator).
    public mutating func handleEvent(_ bytes: [UInt8], now time: Double) -> [Output] {
        now = time
        let wasConnecting = host.setup.connect?.peerAddress
        let hadCapabilities = host.remoteCapabilities != nil
        var out = translate(host.handleEvent(bytes))
        if !hadCapabilities, let caps = host.remoteCapabilities, !setup.requireIOSCompliance {
            let report = IOSComplianceReport(capabilities: caps, bluetoothVersion: host.remoteVersion ?? 0)
            if !report.isCompliant { out.insert(.notIOSCompliant(report.unmet), at: 0) }
        }
        guard let packet = try? HCIPacket(event: bytes) else { return out }
        link?.handleEvent(packet)
        // LE (Enhanced) Connection Complete with success: the link is up.
        if let code = packet.leSubeventCode,
           [LESubeventCode.connectionComplete, LESubeventCode.enhancedConnectionComplete, LESubeventCode.enhancedConnectionCompleteV2].contains(code),
           packet.parameters.count > 3, packet.parameters[1] == 0, let plan = host.setup.connect, wasConnecting != nil {
            let handle = (UInt16(packet.parameters[2]) | UInt16(packet.parameters[3]) << 8) & 0x0FFF
            connectedHandle = handle
            link = L2CAPLink(connectionHandle: handle, bufferLength: host.aclBuffers.length, bufferCount: host.aclBuffers.count)
            let peer = PairingAddress(plan.peerAddress, random: plan.peerAddressIsRandom)
            out.insert(.connected(peer), at: 0)
            if plan.longTermKey.isEmpty { out += secure(peer: peer) }
        }
        // Encryption on: key distribution goes on, and the Ranging Service is readable now.
        if packet.eventCode == EncryptionChange.eventCode, let e = try? EncryptionChange.decode(packet: packet), e.connectionHandle == connectedHandle {
            if var p = pairing {
                let actions = p.encryptionChanged(enabled: e.status == .success && e.encryptionEnabled != 0, now: time)
                pairing = p
                out += perform(actions)
            }
            if e.status == .success, e.encryptionEnabled != 0, ras == nil { ras = RASClient() }
        }
        if packet.eventCode == DisconnectionComplete.eventCode, let e = try? DisconnectionComplete.decode(packet: packet), e.connectionHandle == connectedHandle {
            connectedHandle = nil
            dropLink()
        }
        return out
    }

    /// An ACL packet from the board: SMP reaches the pairing, ATT the RAS client.
    public mutating func handleACL(_ packet: HCIPacket, now time: Double) -> [Output] {
        now = time
        guard var l = link else { return [] }
        let frames = l.receive(packet)
        link = l
        var out: [Output] = []
        for f in frames {
            if f.channel == L2CAPFrame.securityManager, var p = pairing {
                let actions = p.receive(f.payload, now: now)
                pairing = p
                out += perform(actions)
                continue
            }
            guard f.channel == L2CAPFrame.attributeProtocol, let pdu = try? ATTPDU.decode(f.payload), var client = ras else { continue }
            let events = client.receive(pdu)
            ras = client
            for e in events { out += handleRAS(e) }
        }
        return out
    }

    /// The user typed the passkey the reflector shows.
    public mutating func enterPasskey(_ value: UInt32, now time: Double) -> [Output] {
        guard var p = pairing else { return [] }
        let actions = p.enterPasskey(value, now: time)
        pairing = p
        return perform(actions)
    }

    /// Time passes: the SMP timeout.
    public mutating func tick(now time: Double) -> [Output] {
        now = time
        guard var p = pairing else { return [] }
        let actions = p.tick(now: time)
        pairing = p
        return perform(actions)
    }

    // MARK: Security

    /// A new link without a bond key: the bond made earlier, else pairing.
    private mutating func secure(peer: PairingAddress) -> [Output] {
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
        return perform(actions)
    }

    private mutating func perform(_ actions: [PairingSession.Action]) -> [Output] {
        var out: [Output] = []
        for a in actions {
            switch a {
            case .send(let pdu): link?.send(L2CAPFrame(channel: L2CAPFrame.securityManager, payload: pdu.encode()))
            case .startEncryption(let key): host.encrypt(with: key.wire)
            case .requestPasskey: out.append(.passkeyNeeded)
            case .confirmNumber(let n):
                out.append(.compare(n))
                if confirmsNumbers, var p = pairing {
                    let more = p.confirmNumber(true, now: now)
                    pairing = p
                    out += perform(more)
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

    private mutating func handleRAS(_ e: RASClient.Event) -> [Output] {
        switch e {
        case .found: return []  // subscribed only when the configuration goes without inline PCT
        case .ready(let mode):
            host.rangingDataClientReady()
            return [.rangingData(mode)]
        case .segment(let bytes): return translate(host.receiveRangingData(bytes))
        case .overwritten(let counter): return [.rangingDataLost(rangingCounter: counter, "the reflector overwrote it before it was fetched")]
        case let .refused(counter, code): return [.rangingDataLost(rangingCounter: counter, "the RAS Control Point answered \(code)")]
        case .unavailable(let why):
            rasUnavailable = why
            return needsRAS ? [.rangingDataUnavailable(why)] : []
        }
    }

    /// The initiator host's outputs; its call for the RAS client is answered here.
    private mutating func translate(_ outputs: [InitiatorHost.Output]) -> [Output] {
        var out: [Output] = []
        for o in outputs {
            guard o == .needsRangingData else {
                out.append(.host(o))
                continue
            }
            needsRAS = true
            if let why = rasUnavailable ?? (ras == nil ? "the link is not encrypted, so it cannot be read" : nil) {
                out.append(.rangingDataUnavailable(why))
                continue
            }
            ras?.subscribe()
        }
        return out
    }
}
