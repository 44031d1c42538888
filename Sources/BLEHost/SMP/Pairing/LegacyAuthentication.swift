/// Phase 2 of LE legacy pairing (Core 6.0 Vol 3 Part H §2.3.5.2–§2.3.5.5), for a peer without
/// LE Secure Connections when the configuration allows it: TK (zero for Just Works, the
/// passkey for Passkey Entry), the initiator's Mconfirm/Mrand and the responder's
/// Sconfirm/Srand (c1), then the STK from s1 for the first encryption.
///
/// Neither method protects the keys against an eavesdropper of the pairing (§2.3.5.2);
/// Passkey Entry's are still marked authenticated, as the method is.
struct LegacyAuthentication: PairingAuthentication {
    enum Stage: Sendable, Equatable { case waitingForPasskey, waitingForConfirm, waitingForRandom, done }

    let context: PairingContext
    private(set) var stage = Stage.waitingForConfirm
    private var tk = Key128.zero
    /// Mrand (initiator) or Srand (responder).
    private var localRandom = Key128.zero
    /// Sconfirm (initiator) or Mconfirm (responder), which may come while the user types.
    private var peerConfirm: Key128?

    init(context: PairingContext) { self.context = context }

    var expectedCodes: Set<SMPCode> {
        switch stage {
        case .waitingForPasskey: !context.isInitiator && peerConfirm == nil ? [.pairingConfirm] : []
        case .waitingForConfirm: [.pairingConfirm]
        case .waitingForRandom: [.pairingRandom]
        case .done: []
        }
    }

    var awaitsPasskey: Bool { stage == .waitingForPasskey }

    mutating func begin() -> [AuthenticationStep] {
        guard case .passkey = context.method else { return confirm() }  // Just Works: TK 0
        guard context.displaysPasskey else {
            stage = .waitingForPasskey
            return [.requestPasskey]
        }
        let p = context.passkeyToShow()
        tk = Key128(UInt64(p))
        return [.displayPasskey(p)] + confirm()
    }

    mutating func enterPasskey(_ value: UInt32) -> [AuthenticationStep] {
        tk = Key128(UInt64(value))
        return confirm()
    }

    /// TK is known: the initiator sends Mconfirm; the responder answers Mconfirm if it came.
    private mutating func confirm() -> [AuthenticationStep] {
        stage = .waitingForConfirm
        if context.isInitiator {
            localRandom = context.random.key128()
            return [.send(.pairingConfirm(c1(localRandom)))]
        }
        return peerConfirm == nil ? [] : answerConfirm()
    }

    private mutating func answerConfirm() -> [AuthenticationStep] {
        localRandom = context.random.key128()
        stage = .waitingForRandom
        return [.send(.pairingConfirm(c1(localRandom)))]
    }

    mutating func receive(_ pdu: SMPPDU) -> [AuthenticationStep] {
        switch pdu {
        case .pairingConfirm(let c):
            peerConfirm = c
            if context.isInitiator {
                stage = .waitingForRandom
                return [.send(.pairingRandom(localRandom))]
            }
            return stage == .waitingForPasskey ? [] : answerConfirm()
        case .pairingRandom(let r):
            guard c1(r) == peerConfirm else { return [.fail(.confirmValueFailed)] }
            stage = .done
            let (srand, mrand) = context.isInitiator ? (r, localRandom) : (localRandom, r)
            let stk = SMPCrypto.s1(k: tk, r1: srand, r2: mrand)
            if context.isInitiator { return [.encrypt(stk)] }
            // The responder knows the STK before the initiator, which has Srand, can start encryption.
            return [.encrypt(stk), .send(.pairingRandom(localRandom))]
        default:
            return []
        }
    }

    /// c1(TK, r, preq, pres, iat, rat, ia, ra).
    private func c1(_ r: Key128) -> Key128 {
        SMPCrypto.c1(k: tk, r: r, preq: context.request, pres: context.response, ia: context.initiatorAddress, ra: context.responderAddress)
    }
}
