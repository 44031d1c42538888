/// Phase 2 of LE Secure Connections (Core 6.0 Vol 3 Part H §2.3.5.6): the public key exchange
/// with the point check, authentication stage 1 (Just Works and Numeric Comparison: one
/// confirm/random exchange, the responder's confirm only; Passkey Entry: twenty rounds, one per
/// passkey bit, §2.3.5.6.3), then stage 2: f5's MacKey and LTK, f6's DHKey checks Ea and Eb.
///
/// An invalid peer public key (off the curve, or our own key echoed) fails with DHKey Check
/// Failed, as Zephyr's host answers: the text requires the check (§2.3.5.6.1), not the reason.
struct SecureConnectionsAuthentication: PairingAuthentication {
    enum Stage: Sendable, Equatable {
        case waitingForPublicKey, waitingForPasskey, waitingForConfirm, waitingForRandom, waitingForNumberConfirmation, waitingForDHKeyCheck, done
    }

    let context: PairingContext
    let keyPair: P256KeyPair
    private(set) var stage = Stage.waitingForPublicKey
    private var peerKey = P256PublicKey(x: .zero, y: .zero)
    private var dhKey = Key256.zero
    private var passkey: UInt32 = 0
    /// The passkey round, 0–19 (Passkey Entry only).
    private var round = 0
    private var localNonce = Key128.zero
    /// A confirm or DHKey check the peer sent before this side was ready for it.
    private var peerConfirm: Key128?
    private var peerCheck: Key128?
    private var na = Key128.zero, nb = Key128.zero
    private var macKey = Key128.zero, ltk = Key128.zero

    init(context: PairingContext, keyPair: P256KeyPair) {
        self.context = context
        self.keyPair = keyPair
    }

    var expectedCodes: Set<SMPCode> {
        switch stage {
        case .waitingForPublicKey: [.pairingPublicKey]
        // The initiator's confirm (or check) may come while the responder's user types (or compares).
        case .waitingForPasskey: !context.isInitiator && peerConfirm == nil ? [.pairingConfirm] : []
        case .waitingForNumberConfirmation: !context.isInitiator && peerCheck == nil ? [.pairingDHKeyCheck] : []
        case .waitingForConfirm: [.pairingConfirm]
        case .waitingForRandom: [.pairingRandom]
        case .waitingForDHKeyCheck: [.pairingDHKeyCheck]
        case .done: []
        }
    }

    var awaitsPasskey: Bool { stage == .waitingForPasskey }
    var awaitsNumberConfirmation: Bool { stage == .waitingForNumberConfirmation }

    mutating func begin() -> [AuthenticationStep] {
        // The initiator sends its public key first (§2.3.5.6.1).
        context.isInitiator ? [.send(.pairingPublicKey(keyPair.publicKey))] : []
    }

    mutating func receive(_ pdu: SMPPDU) -> [AuthenticationStep] {
        switch pdu {
        case .pairingPublicKey(let key): return receivePublicKey(key)
        case .pairingConfirm(let c):
            peerConfirm = c
            return stage == .waitingForPasskey ? [] : receiveConfirm()
        case .pairingRandom(let n): return receiveRandom(n)
        case .pairingDHKeyCheck(let e):
            peerCheck = e
            return stage == .waitingForNumberConfirmation ? [] : receiveDHKeyCheck()
        default: return []
        }
    }

    mutating func enterPasskey(_ value: UInt32) -> [AuthenticationStep] {
        passkey = value
        return beginPasskeyRound()
    }

    mutating func numberConfirmed() -> [AuthenticationStep] {
        if context.isInitiator { return sendCheck() }
        stage = .waitingForDHKeyCheck
        return peerCheck == nil ? [] : receiveDHKeyCheck()
    }

    // MARK: Public keys

    private mutating func receivePublicKey(_ key: P256PublicKey) -> [AuthenticationStep] {
        guard key != keyPair.publicKey, let w = try? keyPair.dhKey(peerPublicKey: key) else { return [.fail(.dhKeyCheckFailed)] }
        peerKey = key
        dhKey = w
        var steps: [AuthenticationStep] = context.isInitiator ? [] : [.send(.pairingPublicKey(keyPair.publicKey))]
        switch context.method {
        case .justWorks, .numericComparison:
            guard !context.isInitiator else {
                stage = .waitingForConfirm
                return steps
            }
            // Cb = f4(PKbx, PKax, Nb, 0); the initiator answers with Na (§2.3.5.6.2).
            localNonce = context.random.key128()
            stage = .waitingForRandom
            return steps + [.send(.pairingConfirm(SMPCrypto.f4(u: localX, v: peerX, x: localNonce, z: 0)))]
        case .passkey:
            guard context.displaysPasskey else {
                stage = .waitingForPasskey
                return steps + [.requestPasskey]
            }
            passkey = context.passkeyToShow()
            steps.append(.displayPasskey(passkey))
            return steps + beginPasskeyRound()
        }
    }

    // MARK: Stage 1

    /// A passkey round begins: the initiator sends its confirm first; the responder answers
    /// the initiator's (which may have come while its user was typing).
    private mutating func beginPasskeyRound() -> [AuthenticationStep] {
        stage = .waitingForConfirm
        if context.isInitiator { return [.send(.pairingConfirm(passkeyConfirm()))] }
        return peerConfirm == nil ? [] : receiveConfirm()
    }

    /// Z of f4: 0x80 | bit ri of the passkey under Passkey Entry (§2.3.5.6.3), else 0.
    private var z: UInt8 {
        guard case .passkey = context.method else { return 0 }
        return 0x80 | UInt8((passkey >> UInt32(round)) & 1)
    }

    /// This round's confirm from a fresh nonce: f4(PKlocal_x, PKpeer_x, N, Z).
    private mutating func passkeyConfirm() -> Key128 {
        localNonce = context.random.key128()
        return SMPCrypto.f4(u: localX, v: peerX, x: localNonce, z: z)
    }

    private mutating func receiveConfirm() -> [AuthenticationStep] {
        stage = .waitingForRandom
        if context.isInitiator {
            // The responder's Cb (or Cbi): now our nonce (Passkey Entry drew it for Cai).
            if case .passkey = context.method {} else { localNonce = context.random.key128() }
            return [.send(.pairingRandom(localNonce))]
        }
        // Responder, Passkey Entry: answer Cai with Cbi.
        return [.send(.pairingConfirm(passkeyConfirm()))]
    }

    private mutating func receiveRandom(_ n: Key128) -> [AuthenticationStep] {
        // The peer's confirm must match its nonce. Under Just Works and Numeric Comparison the
        // initiator sends no confirm, so only the responder's is checked.
        if let c = peerConfirm {
            guard SMPCrypto.f4(u: peerX, v: localX, x: n, z: z) == c else { return [.fail(.confirmValueFailed)] }
        } else if case .passkey = context.method {
            return [.fail(.confirmValueFailed)]
        }
        peerConfirm = nil
        let steps: [AuthenticationStep] = context.isInitiator ? [] : [.send(.pairingRandom(localNonce))]
        if case .passkey = context.method {
            round += 1
            if round < 20 {
                if context.isInitiator { return steps + beginPasskeyRound() }
                stage = .waitingForConfirm
                return steps
            }
        }
        (na, nb) = context.isInitiator ? (localNonce, n) : (n, localNonce)
        (macKey, ltk) = SMPCrypto.f5(w: dhKey, n1: na, n2: nb, a1: context.initiatorAddress, a2: context.responderAddress)
        if context.method == .numericComparison {
            stage = .waitingForNumberConfirmation
            let v = SMPCrypto.g2(u: initiatorX, v: responderX, x: na, y: nb)
            return steps + [.compareNumber(SMPCrypto.comparisonNumber(v))]
        }
        if context.isInitiator { return steps + sendCheck() }
        stage = .waitingForDHKeyCheck
        return steps
    }

    // MARK: Stage 2

    /// Ea = f6(MacKey, Na, Nb, rb, IOcapA, A, B); Eb = f6(MacKey, Nb, Na, ra, IOcapB, B, A),
    /// ra = rb the passkey under Passkey Entry, else 0 (§2.3.5.6.5).
    private func check(ofInitiator initiator: Bool) -> Key128 {
        let r = Key128(UInt64(passkey))
        let a = context.initiatorAddress, b = context.responderAddress
        return initiator
            ? SMPCrypto.f6(w: macKey, n1: na, n2: nb, r: r, ioCap: context.request, a1: a, a2: b)
            : SMPCrypto.f6(w: macKey, n1: nb, n2: na, r: r, ioCap: context.response, a1: b, a2: a)
    }

    /// Initiator: send Ea, then wait for Eb.
    private mutating func sendCheck() -> [AuthenticationStep] {
        stage = .waitingForDHKeyCheck
        return [.send(.pairingDHKeyCheck(check(ofInitiator: true)))]
    }

    private mutating func receiveDHKeyCheck() -> [AuthenticationStep] {
        guard peerCheck == check(ofInitiator: !context.isInitiator) else { return [.fail(.dhKeyCheckFailed)] }
        stage = .done
        if context.isInitiator { return [.encrypt(ltk)] }
        // The responder knows the LTK before the initiator, which has Eb, can start encryption.
        return [.encrypt(ltk), .send(.pairingDHKeyCheck(check(ofInitiator: false)))]
    }

    private var localX: Key256 { keyPair.publicKey.x }
    private var peerX: Key256 { peerKey.x }
    private var initiatorX: Key256 { context.isInitiator ? localX : peerX }
    private var responderX: Key256 { context.isInitiator ? peerX : localX }
}
