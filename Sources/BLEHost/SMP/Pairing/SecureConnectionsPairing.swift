import ReflectorFirmware

/// One LE Secure Connections pairing on one link, as initiator (the central) or responder
/// (the peripheral) (Core 6.0 Vol 3 Part H §2.3 and §2.3.5.6): pairing feature exchange, the
/// P-256 public key exchange with the point check, authentication stage 1 (Just Works and
/// Numeric Comparison: one confirm/random exchange; Passkey Entry: twenty, one per passkey
/// bit), stage 2 (f5's MacKey and LTK, f6's DHKey checks), encryption with the LTK, then key
/// distribution (IdKey: IRK and identity address; the SC LTK is derived, never sent).
///
/// Pure: SMP PDUs in (`receive`), `Action`s out; time (`tick`) for the 30 s SMP timeout
/// (§3.4); the user's answers (`enterPasskey`, `confirmNumber`) and the link's encryption
/// (`encryptionChanged`) from the host. The key pair and the random source are given, so a
/// pairing can be replayed exactly.
///
/// Decisions where the text leaves room or this implementation narrows it: LE legacy pairing is
/// refused (Pairing Failed, Authentication Requirements, as Secure Connections Only mode
/// answers, §2.3.5.1); keys shorter than 16 octets are refused (Encryption Key Size); an
/// invalid peer public key fails with DHKey Check Failed, as Zephyr's host answers (the text
/// requires the check, §2.3.5.6.1, not the reason); Signing and Link keys are not exchanged.
public struct SecureConnectionsPairing: Sendable {
    public enum Role: Sendable, Equatable { case initiator, responder }

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
        /// (Core 6.0 Vol 3 Part H §2.3.5.3 asks for a random one); a fixed one is what an
        /// accessory with a printed label has (Zephyr's `bt_passkey_set`), and is weaker: a
        /// passive attacker of one pairing learns it for the next.
        public var fixedPasskey: UInt32?

        public init(ioCapability: IOCapability, bonding: Bool = true, requiresMITM: Bool = false, identity: PairingIdentity? = nil) {
            self.ioCapability = ioCapability
            self.bonding = bonding
            self.requiresMITM = requiresMITM
            self.identity = identity
        }

        /// The features this side states (AuthReq with SC always; MITM when asked or the IO
        /// capability allows a passkey or comparison).
        var features: PairingFeatures {
            var auth: AuthRequirements = [.secureConnections]
            if bonding { auth.insert(.bonding) }
            if requiresMITM || ioCapability != .noInputNoOutput { auth.insert(.mitm) }
            return PairingFeatures(ioCapability: ioCapability, authRequirements: auth, maxKeySize: 16,
                                   initiatorKeys: [], responderKeys: [])
        }
    }

    public enum Action: Sendable, Equatable {
        case send(SMPPDU)
        /// Show this six-digit passkey; the peer's user types it.
        case displayPasskey(UInt32)
        /// Ask the user for the passkey the peer shows: `enterPasskey(_:)`.
        case requestPasskey
        /// Show this six-digit number and ask whether the peer shows the same: `confirmNumber(_:)`.
        case confirmNumber(UInt32)
        /// Initiator: start encryption with this LTK (LE Enable Encryption, EDIV 0, Rand 0).
        case startEncryption(longTermKey: [UInt8])
        /// Responder: the LTK to answer the coming LE Long Term Key Request with (EDIV 0, Rand 0).
        case longTermKeyReady([UInt8])
        case paired(PairingResult)
        /// The pairing failed: why, and whether the peer said so (else this side sent Pairing Failed).
        case failed(SMPFailureReason, byPeer: Bool)
        /// No SMP command for 30 s: the pairing is over and no more SMP may be sent on this link.
        case timedOut
    }

    enum Stage: Sendable, Equatable {
        case idle, waitingForRequest, waitingForResponse, waitingForPublicKey, waitingForPasskey, waitingForConfirm,
             waitingForRandom, waitingForUserConfirmation, waitingForDHKeyCheck, waitingForEncryption, distributingKeys, done, failed
    }

    public static let timeout = 30.0
    public static let minimumKeySize: UInt8 = 16

    public let role: Role
    public let configuration: Configuration
    public let local: PairingAddress
    public let peer: PairingAddress
    private let keyPair: P256KeyPair
    private let random: @Sendable (Int) -> [UInt8]
    private(set) var stage: Stage
    private var lastActivity: Double
    public private(set) var method: PairingMethod?

    private var preq: [UInt8] = [], pres: [UInt8] = []
    private var initiatorFeatures: PairingFeatures?, responderFeatures: PairingFeatures?
    /// Public keys X || Y, MSB-first.
    private var peerPublicKey: [UInt8] = []
    private var dhKey: [UInt8] = []
    private var passkey: UInt32?
    private var round = 0
    /// Nonces and the peer's confirm value, MSB-first.
    private var localNonce: [UInt8] = [], peerNonce: [UInt8] = [], peerConfirm: [UInt8]?
    private var na: [UInt8] = [], nb: [UInt8] = []
    private var macKey: [UInt8] = [], ltk: [UInt8] = []
    private var userConfirmed = false
    private var peerCheck: [UInt8]?
    /// Keys still to come from the peer, and the peer's identity as it arrives.
    private var expectedKeys: KeyDistribution = [], keysToSend: KeyDistribution = []
    private var peerIRK: [UInt8]?
    private var peerIdentity: PairingAddress?
    private var identityInformationSeen = false

    public init(role: Role, configuration: Configuration, local: PairingAddress, peer: PairingAddress, keyPair: P256KeyPair,
                now: Double = 0, random: @escaping @Sendable (Int) -> [UInt8]) {
        self.role = role
        self.configuration = configuration
        self.local = local
        self.peer = peer
        self.keyPair = keyPair
        self.random = random
        lastActivity = now
        stage = role == .responder ? .waitingForRequest : .idle
    }

    /// Whether pairing is under way (the SMP timer runs).
    public var isActive: Bool { ![.idle, .waitingForRequest, .done, .failed].contains(stage) }
    public var isFinished: Bool { stage == .done || stage == .failed }

    // MARK: Inputs

    /// Initiator: send Pairing Request.
    public mutating func start(now: Double) -> [Action] {
        guard role == .initiator, stage == .idle else { return [] }
        var f = configuration.features
        f.initiatorKeys = configuration.identity == nil ? [] : [.identityKey]
        f.responderKeys = configuration.acceptsPeerIdentity ? [.identityKey] : []
        let pdu = SMPPDU.pairingRequest(f)
        preq = pdu.encode()
        initiatorFeatures = f
        stage = .waitingForResponse
        lastActivity = now
        return [.send(pdu)]
    }

    /// One SMP PDU from the peer (its octets, Code first).
    public mutating func receive(_ bytes: [UInt8], now: Double) -> [Action] {
        guard !isFinished else { return [] }
        let pdu: SMPPDU
        do { pdu = try SMPPDU.decode(bytes) } catch {
            if case .unexpectedCode = error { return fail(.commandNotSupported) }
            return fail(.invalidParameters)
        }
        lastActivity = now
        if case .pairingFailed(let reason) = pdu {
            stage = .failed
            return [.failed(reason, byPeer: true)]
        }
        switch (stage, pdu) {
        // Neither changes a pairing under way (a Security Request is the host's to answer).
        case (_, .securityRequest), (_, .keypressNotification): return []
        case (.waitingForRequest, .pairingRequest(let f)): return receiveRequest(f, bytes)
        case (.waitingForResponse, .pairingResponse(let f)): return receiveResponse(f, bytes)
        case let (.waitingForPublicKey, .pairingPublicKey(x, y)): return receivePublicKey(x, y)
        case (.waitingForConfirm, .pairingConfirm(let c)), (.waitingForPasskey, .pairingConfirm(let c)):
            peerConfirm = c.reversed()
            return stage == .waitingForPasskey ? [] : receiveConfirm()
        case (.waitingForRandom, .pairingRandom(let r)): return receiveRandom(r.reversed())
        case (.waitingForDHKeyCheck, .pairingDHKeyCheck(let e)), (.waitingForUserConfirmation, .pairingDHKeyCheck(let e)):
            peerCheck = e.reversed()
            return stage == .waitingForUserConfirmation ? [] : receiveDHKeyCheck()
        case (.distributingKeys, .identityInformation(let irk)) where expectedKeys.contains(.identityKey):
            peerIRK = irk
            identityInformationSeen = true
            return []
        case let (.distributingKeys, .identityAddressInformation(random, address)) where expectedKeys.contains(.identityKey) && identityInformationSeen:
            peerIdentity = PairingAddress(address, random: random)
            expectedKeys.remove(.identityKey)
            return keysArrived()
        default:
            return fail(.unspecifiedReason)
        }
    }

    /// The user typed the passkey the peer shows.
    public mutating func enterPasskey(_ value: UInt32, now: Double) -> [Action] {
        guard stage == .waitingForPasskey else { return [] }
        guard value < 1_000_000 else { return fail(.passkeyEntryFailed) }
        lastActivity = now
        passkey = value
        return beginPasskeyRound()
    }

    /// The user's answer to Numeric Comparison.
    public mutating func confirmNumber(_ matches: Bool, now: Double) -> [Action] {
        guard stage == .waitingForUserConfirmation else { return [] }
        guard matches else { return fail(.numericComparisonFailed) }
        lastActivity = now
        userConfirmed = true
        if role == .initiator { return sendCheck() }
        stage = .waitingForDHKeyCheck
        return peerCheck == nil ? [] : receiveDHKeyCheck()
    }

    /// The link's encryption changed: on, with this pairing's LTK, key distribution starts.
    public mutating func encryptionChanged(enabled: Bool, now: Double) -> [Action] {
        guard stage == .waitingForEncryption else { return [] }
        guard enabled else { return fail(.unspecifiedReason) }
        lastActivity = now
        stage = .distributingKeys
        // The responder distributes first (§3.6.1), then the initiator.
        if role == .responder { return sendKeys() + keysArrived() }
        return keysArrived()
    }

    /// Time passes: after 30 s without an SMP command the pairing is over (§3.4).
    public mutating func tick(now: Double) -> [Action] {
        guard isActive, now - lastActivity >= Self.timeout else { return [] }
        stage = .failed
        return [.timedOut]
    }

    // MARK: Phase 1

    private mutating func receiveRequest(_ f: PairingFeatures, _ bytes: [UInt8]) -> [Action] {
        preq = bytes
        initiatorFeatures = f
        guard (7...16).contains(f.maxKeySize) else { return fail(.invalidParameters) }
        guard f.authRequirements.contains(.secureConnections) else { return fail(.authenticationRequirements) }
        guard f.maxKeySize >= Self.minimumKeySize else { return fail(.encryptionKeySize) }
        var mine = configuration.features
        if !f.authRequirements.contains(.bonding) { mine.authRequirements.remove(.bonding) }
        mine.initiatorKeys = f.initiatorKeys.intersection(configuration.acceptsPeerIdentity ? [.identityKey] : [])
        mine.responderKeys = f.responderKeys.intersection(configuration.identity == nil ? [] : [.identityKey])
        let m = PairingMethod.choose(initiator: f, responder: mine)
        guard m.isAuthenticated || !configuration.requiresMITM else { return fail(.authenticationRequirements) }
        method = m
        responderFeatures = mine
        let pdu = SMPPDU.pairingResponse(mine)
        pres = pdu.encode()
        keysToSend = mine.responderKeys
        expectedKeys = mine.initiatorKeys
        stage = .waitingForPublicKey
        return [.send(pdu)]
    }

    private mutating func receiveResponse(_ f: PairingFeatures, _ bytes: [UInt8]) -> [Action] {
        pres = bytes
        guard let mine = initiatorFeatures else { return fail(.unspecifiedReason) }
        guard (7...16).contains(f.maxKeySize) else { return fail(.invalidParameters) }
        guard f.authRequirements.contains(.secureConnections) else { return fail(.authenticationRequirements) }
        guard f.maxKeySize >= Self.minimumKeySize else { return fail(.encryptionKeySize) }
        // The responder may only narrow what was asked.
        guard f.initiatorKeys.isSubset(of: mine.initiatorKeys), f.responderKeys.isSubset(of: mine.responderKeys) else {
            return fail(.invalidParameters)
        }
        let m = PairingMethod.choose(initiator: mine, responder: f)
        guard m.isAuthenticated || !configuration.requiresMITM else { return fail(.authenticationRequirements) }
        method = m
        responderFeatures = f
        keysToSend = f.initiatorKeys
        expectedKeys = f.responderKeys
        stage = .waitingForPublicKey
        return [.send(publicKeyPDU)]
    }

    private var publicKeyPDU: SMPPDU {
        let q = keyPair.publicKey
        return .pairingPublicKey(x: q[0..<32].reversed(), y: q[32..<64].reversed())
    }

    // MARK: Phase 2

    private mutating func receivePublicKey(_ x: [UInt8], _ y: [UInt8]) -> [Action] {
        let key = Array(x.reversed()) + Array(y.reversed())
        // A point off the curve (or the peer echoing our own key) ends the pairing (§2.3.5.6.1).
        guard key != keyPair.publicKey, let w = try? keyPair.dhKey(peerPublicKey: key) else { return fail(.dhKeyCheckFailed) }
        peerPublicKey = key
        dhKey = w
        var actions: [Action] = role == .responder ? [.send(publicKeyPDU)] : []
        switch method {
        case .justWorks?, .numericComparison?:
            if role == .responder {
                // Cb = f4(PKbx, PKax, Nb, 0), and the initiator answers with Na.
                localNonce = nonce()
                guard let cb = try? SMPCrypto.f4(u: localX, v: peerX, x: localNonce, z: 0) else { return actions + fail(.unspecifiedReason) }
                stage = .waitingForRandom
                actions.append(.send(.pairingConfirm(cb.reversed())))
            } else {
                stage = .waitingForConfirm
            }
            return actions
        case let .passkey(initiatorDisplays, responderDisplays)?:
            let displays = role == .initiator ? initiatorDisplays : responderDisplays
            if displays {
                let value = configuration.fixedPasskey ?? Self.drawPasskey(random)
                passkey = value
                actions.append(.displayPasskey(value))
                return actions + beginPasskeyRound()
            }
            stage = .waitingForPasskey
            return actions + [.requestPasskey]
        case nil:
            return fail(.unspecifiedReason)
        }
    }

    /// A passkey round begins: the initiator sends its confirm first; the responder answers
    /// the initiator's (which may have come while its user was typing).
    private mutating func beginPasskeyRound() -> [Action] {
        if role == .initiator {
            guard let c = passkeyConfirm() else { return fail(.unspecifiedReason) }
            stage = .waitingForConfirm
            return [.send(.pairingConfirm(c.reversed()))]
        }
        stage = .waitingForConfirm
        return peerConfirm == nil ? [] : receiveConfirm()
    }

    /// This round's confirm value from a fresh nonce: f4(PKlocal_x, PKpeer_x, N, 0x80 | r_i).
    private mutating func passkeyConfirm() -> [UInt8]? {
        guard let p = passkey else { return nil }
        localNonce = nonce()
        return try? SMPCrypto.f4(u: localX, v: peerX, x: localNonce, z: 0x80 | UInt8((p >> UInt32(round)) & 1))
    }

    private mutating func receiveConfirm() -> [Action] {
        if role == .initiator {
            // The responder's Cb (or Cbi): now our nonce.
            if method == .justWorks || method == .numericComparison { localNonce = nonce() }
            stage = .waitingForRandom
            return [.send(.pairingRandom(localNonce.reversed()))]
        }
        // Responder, passkey: answer Cai with Cbi.
        guard let c = passkeyConfirm() else { return fail(.unspecifiedReason) }
        stage = .waitingForRandom
        return [.send(.pairingConfirm(c.reversed()))]
    }

    private mutating func receiveRandom(_ n: [UInt8]) -> [Action] {
        peerNonce = n
        let z: UInt8
        switch method {
        case .passkey?: z = 0x80 | UInt8(((passkey ?? 0) >> UInt32(round)) & 1)
        default: z = 0
        }
        // The peer's confirm must match its nonce (the initiator's Ca is checked only under passkey:
        // under Just Works and Numeric Comparison the initiator sends none).
        if let c = peerConfirm {
            guard let expected = try? SMPCrypto.f4(u: peerX, v: localX, x: n, z: z), expected == c else { return fail(.confirmValueFailed) }
        } else if case .passkey? = method {
            return fail(.confirmValueFailed)
        }
        peerConfirm = nil
        var actions: [Action] = []
        if role == .responder { actions.append(.send(.pairingRandom(localNonce.reversed()))) }
        if case .passkey? = method {
            round += 1
            if round < 20 {
                if role == .initiator { return actions + beginPasskeyRound() }
                stage = .waitingForConfirm
                return actions
            }
        }
        (na, nb) = role == .initiator ? (localNonce, peerNonce) : (peerNonce, localNonce)
        guard let keys = try? SMPCrypto.f5(w: dhKey, n1: na, n2: nb, a1: initiatorAddress.toolboxOctets, a2: responderAddress.toolboxOctets) else {
            return actions + fail(.unspecifiedReason)
        }
        (macKey, ltk) = keys
        if method == .numericComparison {
            guard let v = try? SMPCrypto.g2(u: initiatorX, v: responderX, x: na, y: nb) else { return actions + fail(.unspecifiedReason) }
            stage = .waitingForUserConfirmation
            return actions + [.confirmNumber(SMPCrypto.comparisonNumber(v))]
        }
        if role == .initiator { return actions + sendCheck() }
        stage = .waitingForDHKeyCheck
        return actions
    }

    /// ra and rb of f6: the passkey (as a 128-bit value) under Passkey Entry, else 0.
    private var r: [UInt8] {
        let p = passkey ?? 0
        return [UInt8](repeating: 0, count: 12) + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: p >> UInt32($0)) }
    }

    /// Ea = f6(MacKey, Na, Nb, rb, IOcapA, A, B); Eb = f6(MacKey, Nb, Na, ra, IOcapB, B, A).
    private func check(of side: Role) -> [UInt8]? {
        guard let fi = initiatorFeatures, let fr = responderFeatures else { return nil }
        let a = initiatorAddress.toolboxOctets, b = responderAddress.toolboxOctets
        return side == .initiator
            ? try? SMPCrypto.f6(w: macKey, n1: na, n2: nb, r: r, ioCap: fi.f6IOCap, a1: a, a2: b)
            : try? SMPCrypto.f6(w: macKey, n1: nb, n2: na, r: r, ioCap: fr.f6IOCap, a1: b, a2: a)
    }

    /// Initiator: send Ea, then wait for Eb.
    private mutating func sendCheck() -> [Action] {
        guard let ea = check(of: .initiator) else { return fail(.unspecifiedReason) }
        stage = .waitingForDHKeyCheck
        return [.send(.pairingDHKeyCheck(ea.reversed()))]
    }

    private mutating func receiveDHKeyCheck() -> [Action] {
        guard let received = peerCheck, let expected = check(of: role == .initiator ? .responder : .initiator), expected == received else {
            return fail(.dhKeyCheckFailed)
        }
        stage = .waitingForEncryption
        if role == .initiator { return [.startEncryption(longTermKey: ltk.reversed())] }
        guard let eb = check(of: .responder) else { return fail(.unspecifiedReason) }
        return [.longTermKeyReady(ltk.reversed()), .send(.pairingDHKeyCheck(eb.reversed()))]
    }

    // MARK: Phase 3

    private mutating func sendKeys() -> [Action] {
        guard keysToSend.contains(.identityKey), let id = configuration.identity else { return [] }
        keysToSend.remove(.identityKey)
        return [.send(.identityInformation(irk: id.irk)), .send(.identityAddressInformation(random: id.address.isRandom, address: id.address.address))]
    }

    /// Once the peer's keys are all here: the initiator sends its own, and the pairing is done.
    private mutating func keysArrived() -> [Action] {
        guard stage == .distributingKeys, expectedKeys.isEmpty else { return [] }
        let sent = role == .initiator ? sendKeys() : []
        stage = .done
        let bonded = initiatorFeatures?.authRequirements.contains(.bonding) == true && responderFeatures?.authRequirements.contains(.bonding) == true
        return sent + [.paired(PairingResult(longTermKey: ltk.reversed(), peerAddress: peerIdentity ?? peer, peerIRK: peerIRK,
                                             method: method ?? .justWorks, bonded: bonded, keySize: 16))]
    }

    // MARK: Helpers

    private var initiatorAddress: PairingAddress { role == .initiator ? local : peer }
    private var responderAddress: PairingAddress { role == .initiator ? peer : local }
    private var localX: [UInt8] { Array(keyPair.publicKey[0..<32]) }
    private var peerX: [UInt8] { Array(peerPublicKey.prefix(32)) }
    private var initiatorX: [UInt8] { role == .initiator ? localX : peerX }
    private var responderX: [UInt8] { role == .initiator ? peerX : localX }

    private func nonce() -> [UInt8] {
        let n = random(16)
        return n.count == 16 ? n : Array((n + [UInt8](repeating: 0, count: 16)).prefix(16))
    }

    /// A uniformly drawn six-digit passkey (32 random bits, rejection-sampled).
    static func drawPasskey(_ random: (Int) -> [UInt8]) -> UInt32 {
        while true {
            let b = random(4)
            guard b.count == 4 else { return 0 }
            let v = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
            // 4_294_000_000 is the largest multiple of 10^6 below 2^32.
            if v < 4_294_000_000 { return v % 1_000_000 }
        }
    }

    private mutating func fail(_ reason: SMPFailureReason) -> [Action] {
        stage = .failed
        return [.send(.pairingFailed(reason)), .failed(reason, byPeer: false)]
    }
}
