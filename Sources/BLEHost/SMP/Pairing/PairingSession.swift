/// One pairing on one link, as initiator (the central) or responder (the peripheral), with LE
/// Secure Connections or, when allowed, LE legacy pairing (Core 6.0 Vol 3 Part H §2.3): the
/// feature exchange, phase 2 by a method engine (`SecureConnectionsAuthentication`,
/// `LegacyAuthentication`), encryption with its key, then key distribution
/// (`KeyDistributionPhase`).
///
/// Pure: SMP PDUs in (`receive`), `Action`s out; time given for the 30 s SMP timeout (§3.4);
/// the user's answers (`enterPasskey`, `confirmNumber`) and the link's encryption
/// (`encryptionChanged`) from the host. The key pair and the randomness are injected, so a
/// pairing replays exactly.
///
/// Every PDU passes one preamble before it reaches a phase, in the order of Zephyr's
/// `bt_smp_recv`: after a timeout (or once the pairing is over) nothing is answered; a
/// reserved code is ignored (§3.3); a command this side does not handle in its role (and
/// Signing Information: no CSRK is ever agreed) is refused with Command Not Supported; one
/// not allowed now with Unspecified Reason (a Pairing Failed not allowed now is ignored, never
/// answered); one of the wrong length with Invalid Parameters, as are reserved field values.
///
/// Decisions where the text leaves room or this implementation narrows it: a peer without
/// Secure Connections is refused with Authentication Requirements unless `legacy` allows it,
/// as Secure Connections Only mode answers (§2.3.5.1); keys shorter than 16 octets are
/// refused (Encryption Key Size); the SMP timer restarts whenever a command is queued for the
/// peer (§3.4), so a user has 30 s from this side's last command to type or compare.
public struct PairingSession: Sendable {
    public enum Role: Sendable, Equatable { case initiator, responder }

    /// Whether LE legacy pairing (§2.3.5.2) may be used.
    public enum LegacyPolicy: Sendable, Equatable {
        /// LE Secure Connections only.
        case refused
        /// LE Secure Connections when the peer has it, else legacy pairing.
        case allowed
        /// Legacy pairing only: this side states no SC support (a device without it).
        case only
    }

    public struct Configuration: Sendable, Equatable {
        public var ioCapability: IOCapability
        /// Ask for (and keep) a bond.
        public var bonding = true
        /// Require MITM protection: Just Works is refused (Authentication Requirements).
        public var requiresMITM = false
        /// Distributed when the peer asks for it (IdKey).
        public var identity: PairingIdentity?
        /// Take the peer's IRK and identity address.
        public var acceptsPeerIdentity = true
        /// The passkey this side shows, when it shows one: nil draws a fresh one per pairing
        /// (§2.3.5.3 asks for a random one); a fixed one is what an accessory with a printed
        /// label has (Zephyr's `bt_passkey_set`), and is weaker: a passive attacker of one
        /// pairing learns it for the next.
        public var fixedPasskey: UInt32?
        public var legacy = LegacyPolicy.refused

        public init(ioCapability: IOCapability, bonding: Bool = true, requiresMITM: Bool = false, identity: PairingIdentity? = nil) {
            self.ioCapability = ioCapability
            self.bonding = bonding
            self.requiresMITM = requiresMITM
            self.identity = identity
        }

        /// The features this side states, before the keys are settled: SC unless legacy only;
        /// MITM when asked for or the IO capability allows a passkey or a comparison.
        var features: PairingFeatures {
            var auth: AuthRequirements = legacy == .only ? [] : [.secureConnections]
            if bonding { auth.insert(.bonding) }
            if requiresMITM || ioCapability != .noInputNoOutput { auth.insert(.mitm) }
            return PairingFeatures(ioCapability: ioCapability, authRequirements: auth, maxKeySize: 16, initiatorKeys: [], responderKeys: [])
        }

        /// The initiator's Pairing Request: its features, its identity offered, the responder's
        /// identity asked for, and its LTK too when legacy pairing may be agreed.
        var request: PairingFeatures {
            var f = features
            (f.initiatorKeys, f.responderKeys) = keys(for: .initiator, legacy: legacy != .refused)
            return f
        }

        /// The keys this side distributes, and those it takes, in a pairing that may be legacy
        /// (EncKey: only a responder's LTK is wanted, as a central reconnects with it).
        func keys(for role: Role, legacy: Bool) -> (sends: KeyDistribution, takes: KeyDistribution) {
            var sends: KeyDistribution = identity == nil ? [] : [.identityKey]
            var takes: KeyDistribution = acceptsPeerIdentity ? [.identityKey] : []
            if legacy { if role == .responder { sends.insert(.encryptionKey) } else { takes.insert(.encryptionKey) } }
            return (sends, takes)
        }
    }

    public enum Action: Sendable, Equatable {
        case send(SMPPDU)
        /// Show this six-digit passkey; the peer's user types it.
        case displayPasskey(UInt32)
        /// Ask the user for the passkey the peer shows: `enterPasskey(_:now:)`.
        case requestPasskey
        /// Show this six-digit number and ask whether the peer shows the same: `confirmNumber(_:now:)`.
        case confirmNumber(UInt32)
        /// Initiator: start encryption with this key (LE Enable Encryption, EDIV 0, Rand 0):
        /// the LTK of LE Secure Connections, the STK of legacy pairing.
        case startEncryption(longTermKey: Key128)
        /// Responder: the key to answer the coming LE Long Term Key Request with (EDIV 0, Rand 0).
        case longTermKeyReady(Key128)
        case paired(PairingResult)
        /// The pairing failed: why, and whether the peer said so (else this side sent Pairing Failed).
        case failed(SMPFailureReason, byPeer: Bool)
        /// No SMP command for 30 s: the pairing is over and no more SMP may be sent on this link.
        case timedOut
    }

    enum Phase: Sendable, Equatable {
        case idle, waitingForRequest, waitingForResponse, authenticating, waitingForEncryption, distributingKeys, done, failed
    }

    public static let timeout = 30.0
    public static let minimumKeySize: UInt8 = 16

    public let role: Role
    public let configuration: Configuration
    public let local: PairingAddress
    public let peer: PairingAddress
    private let keyPair: P256KeyPair
    private let random: RandomOctets
    private(set) var phase: Phase
    /// When the SMP timer last (re)started.
    private var timerStart: Double
    private var request: PairingFeatures?, response: PairingFeatures?
    public private(set) var method: PairingMethod?
    /// LE legacy pairing was agreed (known after the feature exchange).
    public private(set) var isLegacy = false
    private var authentication: (any PairingAuthentication)?
    /// The key phase 2 agreed: the LTK (Secure Connections) or the STK (legacy).
    private var linkKey = Key128.zero
    private var keys = KeyDistributionPhase(sending: [], expecting: [])

    /// `keyPair` is used by LE Secure Connections only.
    public init(role: Role, configuration: Configuration, local: PairingAddress, peer: PairingAddress, keyPair: P256KeyPair,
                random: RandomOctets, now: Double = 0) {
        self.role = role
        self.configuration = configuration
        self.local = local
        self.peer = peer
        self.keyPair = keyPair
        self.random = random
        timerStart = now
        phase = role == .responder ? .waitingForRequest : .idle
    }

    /// Whether pairing is under way (the SMP timer runs).
    public var isActive: Bool { ![.idle, .waitingForRequest, .done, .failed].contains(phase) }
    public var isFinished: Bool { phase == .done || phase == .failed }

    // MARK: Inputs

    /// Initiator: send Pairing Request.
    public mutating func start(now: Double) -> [Action] {
        guard role == .initiator, phase == .idle else { return [] }
        request = configuration.request
        phase = .waitingForResponse
        return stamped([.send(.pairingRequest(configuration.request))], now)
    }

    /// One SMP PDU from the peer (its octets, Code first), through the preamble.
    public mutating func receive(_ bytes: [UInt8], now: Double) -> [Action] {
        // 1. Timed out or over: no more SMP on this pairing.
        guard !isFinished else { return [] }
        // 2. A reserved code: ignored.
        guard let first = bytes.first, let code = SMPCode(rawValue: first) else { return [] }
        // 3. Not handled in this role: Command Not Supported.
        guard Self.handled(by: role).contains(code) else { return fail(.commandNotSupported) }
        // 4. Not allowed now: Unspecified Reason (a Pairing Failed is never answered).
        guard allowedCodes.contains(code) else { return code == .pairingFailed ? [] : fail(.unspecifiedReason) }
        // 5. Not its exact length: Invalid Parameters; so are reserved values, as it decodes.
        guard bytes.count == code.length else { return fail(.invalidParameters) }
        let pdu: SMPPDU
        do { pdu = try SMPPDU.decode(bytes) } catch {
            // A Pairing Failed with a reserved reason still ends the pairing.
            return code == .pairingFailed ? endedByPeer(.unspecifiedReason) : fail(.invalidParameters)
        }
        return stamped(dispatch(pdu), now)
    }

    /// The user typed the passkey the peer shows.
    public mutating func enterPasskey(_ value: UInt32, now: Double) -> [Action] {
        guard phase == .authenticating, authentication?.awaitsPasskey == true else { return [] }
        guard value < 1_000_000 else { return fail(.passkeyEntryFailed) }
        return stamped(authenticate { $0.enterPasskey(value) }, now)
    }

    /// The user's answer to Numeric Comparison.
    public mutating func confirmNumber(_ matches: Bool, now: Double) -> [Action] {
        guard phase == .authenticating, authentication?.awaitsNumberConfirmation == true else { return [] }
        guard matches else { return fail(.numericComparisonFailed) }
        return stamped(authenticate { $0.numberConfirmed() }, now)
    }

    /// The link's encryption changed: on, with phase 2's key, key distribution starts; the
    /// responder distributes first (§3.6.1).
    public mutating func encryptionChanged(enabled: Bool, now: Double) -> [Action] {
        guard phase == .waitingForEncryption else { return [] }
        guard enabled else { return fail(.unspecifiedReason) }
        phase = .distributingKeys
        let sent = role == .responder ? distribute() : []
        return stamped(sent + keysArrived(), now)
    }

    /// Time passes: 30 s after the SMP timer last started, the pairing is over (§3.4).
    public mutating func tick(now: Double) -> [Action] {
        guard isActive, now - timerStart >= Self.timeout else { return [] }
        phase = .failed
        return [.timedOut]
    }

    // MARK: The preamble

    /// The codes each role handles: a responder takes no Pairing Response or Security
    /// Request, an initiator no Pairing Request; neither takes Signing Information.
    static func handled(by role: Role) -> Set<SMPCode> {
        var codes = Set(SMPCode.allCases)
        codes.remove(.signingInformation)
        codes.subtract(role == .initiator ? [.pairingRequest] : [.pairingResponse, .securityRequest])
        return codes
    }

    /// The codes allowed now. Pairing Failed, Keypress Notification and Security Request are
    /// allowed through a pairing (the last two change nothing: a Security Request is the
    /// host's to answer).
    var allowedCodes: Set<SMPCode> {
        let phaseCodes: Set<SMPCode>
        switch phase {
        case .idle: return [.securityRequest]
        case .waitingForRequest: return [.pairingRequest]
        case .waitingForResponse: phaseCodes = [.pairingResponse]
        case .authenticating: phaseCodes = authentication?.expectedCodes ?? []
        case .waitingForEncryption: phaseCodes = []
        case .distributingKeys: phaseCodes = keys.expectedCodes
        case .done, .failed: return []
        }
        return phaseCodes.union([.pairingFailed, .keypressNotification, .securityRequest])
    }

    private mutating func dispatch(_ pdu: SMPPDU) -> [Action] {
        switch pdu {
        case .pairingFailed(let reason): return endedByPeer(reason)
        case .securityRequest, .keypressNotification: return []
        case .pairingRequest(let f): return receiveRequest(f)
        case .pairingResponse(let f): return receiveResponse(f)
        case .encryptionInformation, .centralIdentification, .identityInformation, .identityAddressInformation:
            keys.receive(pdu)
            return keysArrived()
        default: return authenticate { $0.receive(pdu) }
        }
    }

    // MARK: Phase 1: the feature exchange

    private mutating func receiveRequest(_ f: PairingFeatures) -> [Action] {
        request = f
        if let refusal = refusal(ofPeer: f) { return fail(refusal) }
        var mine = configuration.features
        if !f.authRequirements.contains(.bonding) { mine.authRequirements.remove(.bonding) }
        let keys = configuration.keys(for: .responder, legacy: !Self.secureConnections(f, mine))
        mine.initiatorKeys = f.initiatorKeys.intersection(keys.takes)
        mine.responderKeys = f.responderKeys.intersection(keys.sends)
        if let refusal = agree(request: f, response: mine) { return fail(refusal) }
        response = mine
        return [.send(.pairingResponse(mine))] + authenticate { $0.begin() }
    }

    private mutating func receiveResponse(_ f: PairingFeatures) -> [Action] {
        response = f
        let mine = configuration.request
        if let refusal = refusal(ofPeer: f) { return fail(refusal) }
        // The responder may only narrow what was asked.
        guard f.initiatorKeys.isSubset(of: mine.initiatorKeys), f.responderKeys.isSubset(of: mine.responderKeys) else {
            return fail(.invalidParameters)
        }
        if let refusal = agree(request: mine, response: f) { return fail(refusal) }
        return authenticate { $0.begin() }
    }

    /// What the peer's features alone rule out: a key size outside 7...16, a pairing without
    /// Secure Connections that is not allowed, keys shorter than 16 octets.
    private func refusal(ofPeer f: PairingFeatures) -> SMPFailureReason? {
        guard (7...16).contains(f.maxKeySize) else { return .invalidParameters }
        if configuration.legacy == .refused, !f.authRequirements.contains(.secureConnections) { return .authenticationRequirements }
        guard f.maxKeySize >= Self.minimumKeySize else { return .encryptionKeySize }
        return nil
    }

    static func secureConnections(_ request: PairingFeatures, _ response: PairingFeatures) -> Bool {
        request.authRequirements.contains(.secureConnections) && response.authRequirements.contains(.secureConnections)
    }

    /// Both features known: the kind and method (refused if MITM is required and it gives
    /// none), the keys each side distributes, and phase 2's engine.
    private mutating func agree(request: PairingFeatures, response: PairingFeatures) -> SMPFailureReason? {
        let legacy = !Self.secureConnections(request, response)
        let m = PairingMethod.choose(initiator: request, responder: response, legacy: legacy)
        guard m.isAuthenticated || !configuration.requiresMITM else { return .authenticationRequirements }
        method = m
        isLegacy = legacy
        // LE Secure Connections ignores EncKey (§3.6.1).
        let ignored: KeyDistribution = legacy ? [] : [.encryptionKey]
        // The response holds what was agreed.
        let (sends, takes) = role == .initiator ? (response.initiatorKeys, response.responderKeys) : (response.responderKeys, response.initiatorKeys)
        keys = KeyDistributionPhase(sending: sends.subtracting(ignored), expecting: takes.subtracting(ignored))
        let context = PairingContext(role: role, method: m, initiatorAddress: role == .initiator ? local : peer,
                                     responderAddress: role == .initiator ? peer : local, request: request, response: response,
                                     random: random, fixedPasskey: configuration.fixedPasskey)
        authentication = legacy ? LegacyAuthentication(context: context) : SecureConnectionsAuthentication(context: context, keyPair: keyPair)
        phase = .authenticating
        return nil
    }

    // MARK: Phase 2

    /// Runs the engine and turns its steps into actions: a failure ends the pairing, the
    /// agreed key starts (initiator) or readies (responder) encryption.
    private mutating func authenticate(_ body: (inout any PairingAuthentication) -> [AuthenticationStep]) -> [Action] {
        guard var engine = authentication else { return [] }
        let steps = body(&engine)
        authentication = engine
        var out: [Action] = []
        for step in steps {
            switch step {
            case .send(let pdu): out.append(.send(pdu))
            case .displayPasskey(let p): out.append(.displayPasskey(p))
            case .requestPasskey: out.append(.requestPasskey)
            case .compareNumber(let n): out.append(.confirmNumber(n))
            case .fail(let reason): return out + fail(reason)
            case .encrypt(let key):
                linkKey = key
                phase = .waitingForEncryption
                out.append(role == .initiator ? .startEncryption(longTermKey: key) : .longTermKeyReady(key))
            }
        }
        return out
    }

    // MARK: Phase 3: key distribution

    private mutating func distribute() -> [Action] {
        keys.distribute(identity: configuration.identity, random: random).map { .send($0) }
    }

    /// Once the peer's keys are all here: the initiator sends its own, and the pairing is done.
    private mutating func keysArrived() -> [Action] {
        guard phase == .distributingKeys, keys.isComplete else { return [] }
        let sent = role == .initiator ? distribute() : []
        phase = .done
        return sent + [.paired(result)]
    }

    private var result: PairingResult {
        let bonded = request?.authRequirements.contains(.bonding) == true && response?.authRequirements.contains(.bonding) == true
        var r = PairingResult(longTermKey: linkKey, peerAddress: keys.peerIdentity ?? peer, peerIRK: keys.peerIRK, method: method ?? .justWorks,
                              bonded: bonded, keySize: 16)
        guard isLegacy else { return r }
        // Legacy: the responder's distributed LTK names the bond, on both sides.
        let named = role == .responder ? keys.distributed : keys.peerKey
        r.legacy = true
        r.bonded = bonded && named != nil
        if let k = named { (r.longTermKey, r.ediv, r.rand) = (k.ltk, k.ediv, k.rand) }
        return r
    }

    // MARK: The end

    private mutating func fail(_ reason: SMPFailureReason) -> [Action] {
        phase = .failed
        return [.send(.pairingFailed(reason)), .failed(reason, byPeer: false)]
    }

    private mutating func endedByPeer(_ reason: SMPFailureReason) -> [Action] {
        phase = .failed
        return [.failed(reason, byPeer: true)]
    }

    /// The SMP timer restarts when a command is queued for the peer (§3.4).
    private mutating func stamped(_ actions: [Action], _ now: Double) -> [Action] {
        if actions.contains(where: { if case .send = $0 { true } else { false } }) { timerStart = now }
        return actions
    }
}
