import ReflectorFirmware

/// LE legacy pairing as the responder (the accessory), for a central that cannot do LE Secure
/// Connections, when the accessory allows it (Core 6.0 Vol 3 Part H §2.3.5.2–§2.3.5.5, §2.4.2):
/// TK zero (Just Works) or the passkey the accessory shows; the central's Mconfirm/Mrand and our
/// Sconfirm/Srand (c1), the STK from s1 for the first encryption, then key distribution: a fresh
/// LTK with its EDIV and Rand (EncKey) and the identity (IdKey), and the central's identity.
/// Legacy Just Works and even legacy passkey keys are not protected against an eavesdropper of
/// the pairing (§2.3.5.2); the keys are marked unauthenticated or authenticated as the method is.
///
/// Same inputs and `SecureConnectionsPairing.Action`s as the Secure Connections responder.
public struct LegacyPairing: Sendable {
    public typealias Action = SecureConnectionsPairing.Action

    enum Stage: Sendable, Equatable { case waitingForRequest, waitingForConfirm, waitingForRandom, waitingForEncryption, distributingKeys, done, failed }

    public let configuration: SecureConnectionsPairing.Configuration
    public let local: PairingAddress
    public let peer: PairingAddress
    private let random: @Sendable (Int) -> [UInt8]
    private(set) var stage = Stage.waitingForRequest
    private var lastActivity: Double
    public private(set) var method: PairingMethod?
    private var preq: [UInt8] = [], pres: [UInt8] = []
    /// TK, Srand, the central's Mconfirm, all MSB-first.
    private var tk = [UInt8](repeating: 0, count: 16)
    private var srand: [UInt8] = []
    private var mconfirm: [UInt8]?
    private var expectedKeys: KeyDistribution = [], keysToSend: KeyDistribution = []
    private var bonding = false
    private var distributed: (ltk: [UInt8], ediv: UInt16, rand: UInt64)?
    private var peerIRK: [UInt8]?
    private var peerIdentity: PairingAddress?
    private var identityInformationSeen = false

    public init(configuration: SecureConnectionsPairing.Configuration, local: PairingAddress, peer: PairingAddress, now: Double = 0,
                random: @escaping @Sendable (Int) -> [UInt8]) {
        self.configuration = configuration
        self.local = local
        self.peer = peer
        self.random = random
        lastActivity = now
    }

    public var isFinished: Bool { stage == .done || stage == .failed }
    var isActive: Bool { ![.waitingForRequest, .done, .failed].contains(stage) }

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
        case (_, .securityRequest), (_, .keypressNotification): return []
        case (.waitingForRequest, .pairingRequest(let f)): return receiveRequest(f, bytes)
        case (.waitingForConfirm, .pairingConfirm(let c)):
            mconfirm = c.reversed()
            srand = nonce()
            guard let s = confirm(srand) else { return fail(.unspecifiedReason) }
            stage = .waitingForRandom
            return [.send(.pairingConfirm(s.reversed()))]
        case (.waitingForRandom, .pairingRandom(let r)):
            let mrand = Array(r.reversed())
            guard let expected = confirm(mrand), expected == mconfirm else { return fail(.confirmValueFailed) }
            guard let stk = try? SMPCrypto.s1(k: tk, r1: srand, r2: mrand) else { return fail(.unspecifiedReason) }
            stage = .waitingForEncryption
            return [.send(.pairingRandom(srand.reversed())), .longTermKeyReady(stk.reversed())]
        case (.distributingKeys, .identityInformation(let irk)) where expectedKeys.contains(.identityKey):
            peerIRK = irk
            identityInformationSeen = true
            return []
        case let (.distributingKeys, .identityAddressInformation(random, address)) where expectedKeys.contains(.identityKey) && identityInformationSeen:
            peerIdentity = PairingAddress(address, random: random)
            expectedKeys.remove(.identityKey)
            return finishIfDone()
        default:
            return fail(.unspecifiedReason)
        }
    }

    /// The link is encrypted with the STK: this side's keys go, then the central's come.
    public mutating func encryptionChanged(enabled: Bool, now: Double) -> [Action] {
        guard stage == .waitingForEncryption else { return [] }
        guard enabled else { return fail(.unspecifiedReason) }
        lastActivity = now
        stage = .distributingKeys
        var out: [Action] = []
        if keysToSend.contains(.encryptionKey) {
            let ltk = nonce()
            let e = random(2) + [0, 0], r = random(8) + [UInt8](repeating: 0, count: 8)
            let ediv = UInt16(e[0]) | UInt16(e[1]) << 8
            var rand: UInt64 = 0
            for i in 0..<8 { rand |= UInt64(r[i]) << UInt64(8 * i) }
            distributed = (ltk.reversed(), ediv, rand)
            out += [.send(.encryptionInformation(longTermKey: ltk.reversed())), .send(.centralIdentification(ediv: ediv, rand: rand))]
        }
        if keysToSend.contains(.identityKey), let id = configuration.identity {
            out += [.send(.identityInformation(irk: id.irk)), .send(.identityAddressInformation(random: id.address.isRandom, address: id.address.address))]
        }
        return out + finishIfDone()
    }

    public mutating func enterPasskey(_ value: UInt32, now: Double) -> [Action] { [] }
    public mutating func confirmNumber(_ matches: Bool, now: Double) -> [Action] { [] }

    public mutating func tick(now: Double) -> [Action] {
        guard isActive, now - lastActivity >= SecureConnectionsPairing.timeout else { return [] }
        stage = .failed
        return [.timedOut]
    }

    private mutating func receiveRequest(_ f: PairingFeatures, _ bytes: [UInt8]) -> [Action] {
        preq = bytes
        guard (7...16).contains(f.maxKeySize) else { return fail(.invalidParameters) }
        guard f.maxKeySize >= SecureConnectionsPairing.minimumKeySize else { return fail(.encryptionKeySize) }
        var mine = configuration.features
        mine.authRequirements.remove(.secureConnections)
        if !f.authRequirements.contains(.bonding) { mine.authRequirements.remove(.bonding) }
        bonding = mine.authRequirements.contains(.bonding)
        mine.initiatorKeys = f.initiatorKeys.intersection(configuration.acceptsPeerIdentity ? [.identityKey] : [])
        mine.responderKeys = f.responderKeys.intersection(configuration.identity == nil ? [.encryptionKey] : [.encryptionKey, .identityKey])
        // Table 2.8 for legacy pairing: Numeric Comparison does not exist, it is Just Works.
        var m = PairingMethod.choose(initiator: f, responder: mine)
        if m == .numericComparison { m = .justWorks }
        guard m.isAuthenticated || !configuration.requiresMITM else { return fail(.authenticationRequirements) }
        method = m
        let pdu = SMPPDU.pairingResponse(mine)
        pres = pdu.encode()
        keysToSend = mine.responderKeys
        expectedKeys = mine.initiatorKeys
        stage = .waitingForConfirm
        guard case let .passkey(_, responderDisplays) = m else { return [.send(pdu)] }
        guard responderDisplays else { return fail(.passkeyEntryFailed) }  // this responder shows, it never types
        let p = configuration.fixedPasskey ?? SecureConnectionsPairing.drawPasskey(random)
        tk = [UInt8](repeating: 0, count: 12) + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: p >> UInt32($0)) }
        return [.send(pdu), .displayPasskey(p)]
    }

    /// c1(TK, r, preq, pres, iat, rat, ia, ra), the initiator being the peer.
    private func confirm(_ r: [UInt8]) -> [UInt8]? {
        func msb(_ a: UInt64) -> [UInt8] { (0..<6).reversed().map { UInt8(truncatingIfNeeded: a >> UInt64(8 * $0)) } }
        return try? SMPCrypto.c1(k: tk, r: r, preq: preq.reversed(), pres: pres.reversed(), iat: peer.isRandom ? 1 : 0, rat: local.isRandom ? 1 : 0,
                                 ia: msb(peer.address), ra: msb(local.address))
    }

    private mutating func finishIfDone() -> [Action] {
        guard stage == .distributingKeys, expectedKeys.isEmpty else { return [] }
        stage = .done
        let d = distributed
        return [.paired(PairingResult(longTermKey: d?.ltk ?? [], peerAddress: peerIdentity ?? peer, peerIRK: peerIRK, method: method ?? .justWorks,
                                      bonded: bonding && d != nil, keySize: 16, ediv: d?.ediv ?? 0, rand: d?.rand ?? 0, legacy: true))]
    }

    private func nonce() -> [UInt8] { Array((random(16) + [UInt8](repeating: 0, count: 16)).prefix(16)) }

    private mutating func fail(_ reason: SMPFailureReason) -> [Action] {
        stage = .failed
        return [.send(.pairingFailed(reason)), .failed(reason, byPeer: false)]
    }
}
