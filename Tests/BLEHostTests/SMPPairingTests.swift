import BLEHost
import EmulatorMath
import Foundation
import TestSupport
import Testing

/// Pairing, initiator against responder, both this project's `PairingSession`, with the spec's
/// sample key pairs (Appendix D.1) and seeded nonces: every method of Table 2.8 agrees on one
/// LTK, under LE Secure Connections and LE legacy pairing; the failures a user or an attacker
/// causes end with the reason the specification names, in the octets Pairing Failed carries,
/// and leave no keys; the receive preamble refuses in Zephyr's order; and the SMP timeout.
/// (Against an implementation that is not ours: `SMPBumbleTests`.)
@Suite struct SMPPairingTests {
    static let central = PairingAddress(0xF0F1_F2F3_F4F5, random: true)
    static let peripheral = PairingAddress(0xC0FF_EE00_00A0, random: false)
    static let keysA = try! P256KeyPair(privateKey: SecurityToolboxTests.privateA)
    static let keysB = try! P256KeyPair(privateKey: SecurityToolboxTests.privateB)

    /// Seeded octets for nonces, passkeys and legacy keys.
    static func seeded(_ seed: UInt64) -> RandomOctets {
        let rng = Seeded(seed)
        return RandomOctets { $0 = rng.bytes($0.count) }
    }

    final class Seeded: @unchecked Sendable {
        private var rng: SplitMix64
        private let lock = NSLock()
        init(_ seed: UInt64) { rng = SplitMix64(seed: seed) }
        func bytes(_ n: Int) -> [UInt8] {
            lock.lock()
            defer { lock.unlock() }
            return rng.bytes(n)
        }
    }

    /// Two pairings wired PDU to PDU, with the users' parts played as asked.
    struct Pair {
        var initiator: PairingSession
        var responder: PairingSession
        /// Every action of each side, in order.
        var initiatorActions: [PairingSession.Action] = []
        var responderActions: [PairingSession.Action] = []
        /// What each user types when asked (nil: the passkey the other side shows).
        var typedPasskey: UInt32?
        var responderTypes: UInt32?
        var numbersMatch = true
        /// Alters a PDU on its way (an attacker on the link): (from initiator?, octets) -> octets.
        var tamper: (@Sendable (Bool, [UInt8]) -> [UInt8])?

        init(initiator: PairingSession.Configuration, responder: PairingSession.Configuration, seed: UInt64 = 1) {
            let random = SMPPairingTests.seeded(seed)
            self.initiator = PairingSession(role: .initiator, configuration: initiator, local: SMPPairingTests.central,
                                            peer: SMPPairingTests.peripheral, keyPair: SMPPairingTests.keysA, random: random)
            self.responder = PairingSession(role: .responder, configuration: responder, local: SMPPairingTests.peripheral,
                                            peer: SMPPairingTests.central, keyPair: SMPPairingTests.keysB, random: random)
        }

        /// Runs the pairing to its end: PDUs both ways, users' answers, encryption when asked.
        mutating func run() {
            var toResponder: [[UInt8]] = [], toInitiator: [[UInt8]] = []
            var shown: UInt32?
            var pendingInitiator = initiator.start(now: 0)
            var pendingResponder: [PairingSession.Action] = []
            // A user asked before the other side shows its passkey types once it does.
            var responderAsked = false
            var steps = 0
            while (!pendingInitiator.isEmpty || !pendingResponder.isEmpty || !toResponder.isEmpty || !toInitiator.isEmpty || responderAsked), steps < 500 {
                steps += 1
                if responderAsked, let typed = responderTypes ?? shown {
                    responderAsked = false
                    pendingResponder += responder.enterPasskey(typed, now: 1)
                }
                let fromInitiator = pendingInitiator
                pendingInitiator = []
                initiatorActions += fromInitiator
                for a in fromInitiator {
                    switch a {
                    case .send(let pdu): toResponder.append(tamper?(true, pdu.encode()) ?? pdu.encode())
                    case .requestPasskey: pendingInitiator += initiator.enterPasskey(typedPasskey ?? shown ?? 0, now: 1)
                    case .displayPasskey(let p): shown = p
                    case .confirmNumber: pendingInitiator += initiator.confirmNumber(numbersMatch, now: 1)
                    case .startEncryption:
                        pendingInitiator += initiator.encryptionChanged(enabled: true, now: 1)
                        pendingResponder += responder.encryptionChanged(enabled: true, now: 1)
                    default: break
                    }
                }
                let fromResponder = pendingResponder
                pendingResponder = []
                responderActions += fromResponder
                for a in fromResponder {
                    switch a {
                    case .send(let pdu): toInitiator.append(tamper?(false, pdu.encode()) ?? pdu.encode())
                    case .displayPasskey(let p): shown = p
                    case .requestPasskey: responderAsked = true
                    case .confirmNumber: pendingResponder += responder.confirmNumber(true, now: 1)
                    default: break
                    }
                }
                if !toResponder.isEmpty { pendingResponder += responder.receive(toResponder.removeFirst(), now: 1) }
                if !toInitiator.isEmpty { pendingInitiator += initiator.receive(toInitiator.removeFirst(), now: 1) }
            }
        }

        var initiatorResult: PairingResult? { initiatorActions.lazy.compactMap { if case .paired(let r) = $0 { r } else { nil } }.first }
        var responderResult: PairingResult? { responderActions.lazy.compactMap { if case .paired(let r) = $0 { r } else { nil } }.first }
        func failure(_ actions: [PairingSession.Action]) -> (SMPFailureReason, Bool)? {
            actions.lazy.compactMap { if case let .failed(r, byPeer) = $0 { (r, byPeer) } else { nil } }.first
        }
        func sent(_ actions: [PairingSession.Action]) -> [[UInt8]] {
            actions.compactMap { if case .send(let p) = $0 { p.encode() } else { nil } }
        }
        /// The key the initiator encrypted with and the one the responder readied.
        var encryptionKeys: (Key128?, Key128?) {
            (initiatorActions.lazy.compactMap { if case .startEncryption(let k) = $0 { k } else { nil } }.first,
             responderActions.lazy.compactMap { if case .longTermKeyReady(let k) = $0 { k } else { nil } }.first)
        }
    }

    static let phoneIRK = Key128(octets: [UInt8](repeating: 0xA5, count: 16))
    static let accessoryIRK = Key128(octets: [UInt8](repeating: 0x5A, count: 16))
    static let phone = PairingSession.Configuration(ioCapability: .keyboardDisplay, identity: PairingIdentity(irk: phoneIRK, address: central))
    static let accessory = PairingSession.Configuration(ioCapability: .noInputNoOutput, identity: PairingIdentity(irk: accessoryIRK, address: peripheral))

    @Test func justWorksAgreesOnOneKeyAndExchangesIdentities() throws {
        var pair = Pair(initiator: Self.phone, responder: Self.accessory)
        pair.run()
        let i = try #require(pair.initiatorResult), r = try #require(pair.responderResult)
        #expect(i.longTermKey == r.longTermKey && !i.legacy)
        #expect(i.method == .justWorks && !i.isAuthenticated && i.bonded && r.bonded)
        // Each side holds the other's identity.
        #expect(r.peerIRK == Self.phoneIRK && r.peerAddress == Self.central)
        #expect(i.peerIRK == Self.accessoryIRK && i.peerAddress == Self.peripheral)
        // The exchange as the wire carries it: Pairing Request 01 04 00 2D 10 02 02 (KeyboardDisplay,
        // no OOB, AuthReq bonding | MITM | SC, 16 octets, IdKey both ways), the public key, then
        // Pairing Random, DHKey Check, Identity Information, Identity Address Information.
        let sent = pair.sent(pair.initiatorActions)
        #expect(sent.first == [0x01, 0x04, 0x00, 0x0D, 0x10, 0x02, 0x02])
        #expect(sent.map(\.first) == [0x01, 0x0C, 0x04, 0x0D, 0x08, 0x09])
        // The responder: NoInputNoOutput, bonding | SC (no MITM to offer), IdKey both ways.
        let answered = pair.sent(pair.responderActions)
        #expect(answered.first == [0x02, 0x03, 0x00, 0x09, 0x10, 0x02, 0x02])
        #expect(answered.map(\.first) == [0x02, 0x0C, 0x03, 0x04, 0x0D, 0x08, 0x09])
        // The responder knew the key before the initiator started encryption with it.
        #expect(pair.responderActions.contains(.longTermKeyReady(i.longTermKey)))
        #expect(pair.initiatorActions.contains(.startEncryption(longTermKey: i.longTermKey)))
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func passkeyShownOnTheAccessoryIsAuthenticated(seed: UInt64) throws {
        var accessory = Self.accessory
        accessory.ioCapability = .displayOnly
        var pair = Pair(initiator: Self.phone, responder: accessory, seed: seed)
        pair.run()
        let i = try #require(pair.initiatorResult), r = try #require(pair.responderResult)
        #expect(i.longTermKey == r.longTermKey)
        #expect(i.method == .passkey(initiatorDisplays: false, responderDisplays: true) && i.isAuthenticated)
        // Twenty confirm/random rounds each way.
        let confirms = pair.sent(pair.initiatorActions).filter { $0.first == 0x03 }.count
        #expect(confirms == 20)
        #expect(pair.responderActions.contains { if case .displayPasskey(let p) = $0 { p < 1_000_000 } else { false } })
    }

    @Test func aWrongPasskeyFailsWithConfirmValueFailedAndNoKeys() throws {
        var accessory = Self.accessory
        accessory.ioCapability = .displayOnly
        // A dry run of the same seeded pairing gives the passkey the accessory will show.
        var dry = Pair(initiator: Self.phone, responder: accessory)
        dry.run()
        let shown = try #require(dry.responderActions.lazy.compactMap { if case .displayPasskey(let p) = $0 { p } else { nil } }.first)
        var pair = Pair(initiator: Self.phone, responder: accessory)
        pair.typedPasskey = shown ^ 0x1  // differs in bit 0: the first round fails
        pair.run()
        #expect(pair.initiatorResult == nil && pair.responderResult == nil)
        #expect(pair.failure(pair.responderActions)! == (.confirmValueFailed, false))
        #expect(pair.failure(pair.initiatorActions)! == (.confirmValueFailed, true))
        #expect(pair.sent(pair.responderActions).last == [0x05, 0x04])
        #expect(!pair.responderActions.contains { if case .longTermKeyReady = $0 { true } else { false } })
    }

    @Test func numericComparisonShowsTheSameNumberOnBoth() throws {
        var accessory = Self.accessory
        accessory.ioCapability = .displayYesNo
        var pair = Pair(initiator: Self.phone, responder: accessory)
        pair.run()
        let numbers = (pair.initiatorActions + pair.responderActions).compactMap { if case .confirmNumber(let n) = $0 { n } else { nil } }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] < 1_000_000)
        #expect(pair.initiatorResult?.method == .numericComparison && pair.responderResult?.longTermKey == pair.initiatorResult?.longTermKey)

        var rejected = Pair(initiator: Self.phone, responder: accessory)
        rejected.numbersMatch = false
        rejected.run()
        #expect(rejected.failure(rejected.initiatorActions)! == (.numericComparisonFailed, false))
        #expect(rejected.responderResult == nil)
    }

    /// A public key that is not a point of P-256 (the invalid-curve attack): DHKey Check Failed
    /// (0x0B, as Zephyr answers), before any confirm value.
    @Test func anInvalidPublicKeyEndsThePairing() throws {
        var pair = Pair(initiator: Self.phone, responder: Self.accessory)
        pair.tamper = { fromInitiator, pdu in
            guard fromInitiator, pdu.first == 0x0C else { return pdu }
            var bad = pdu
            bad[40] ^= 0x01  // a Y that is not X's
            return bad
        }
        pair.run()
        #expect(pair.failure(pair.responderActions)! == (.dhKeyCheckFailed, false))
        #expect(pair.sent(pair.responderActions) == [[0x02, 0x03, 0x00, 0x09, 0x10, 0x02, 0x02], [0x05, 0x0B]])
        #expect(pair.initiatorResult == nil)
    }

    @Test func aBadDHKeyCheckEndsThePairing() {
        var pair = Pair(initiator: Self.phone, responder: Self.accessory)
        pair.tamper = { fromInitiator, pdu in
            guard fromInitiator, pdu.first == 0x0D else { return pdu }
            var bad = pdu
            bad[5] ^= 0x80
            return bad
        }
        pair.run()
        #expect(pair.failure(pair.responderActions)! == (.dhKeyCheckFailed, false))
        #expect(pair.sent(pair.responderActions).last == [0x05, 0x0B])
        #expect(!pair.responderActions.contains { if case .longTermKeyReady = $0 { true } else { false } })
        #expect(pair.initiatorResult == nil && pair.responderResult == nil)
    }

    /// What a responder refuses in a Pairing Request, as the octets of Pairing Failed.
    @Test(arguments: [
        ([UInt8]([0x01, 0x04, 0x00, 0x05, 0x10, 0x02, 0x02]), [UInt8]([0x05, 0x03])),  // legacy (no SC bit): Authentication Requirements
        ([0x01, 0x04, 0x00, 0x0D, 0x07, 0x02, 0x02], [0x05, 0x06]),  // 7-octet keys: Encryption Key Size
        ([0x01, 0x04, 0x00, 0x0D, 0x11, 0x02, 0x02], [0x05, 0x0A]),  // 17 octets: Invalid Parameters
        ([0x01, 0x07, 0x00, 0x0D, 0x10, 0x02, 0x02], [0x05, 0x0A]),  // reserved IO capability
        ([0x01, 0x04, 0x02, 0x0D, 0x10, 0x02, 0x02], [0x05, 0x0A]),  // reserved OOB data flag
        ([0x01, 0x04, 0x00, 0x0D, 0x10, 0x02], [0x05, 0x0A]),  // too short
        ([0x03] + [UInt8](repeating: 0, count: 16), [0x05, 0x08]),  // a confirm before any request
    ])
    func refusedRequests(request: [UInt8], answer: [UInt8]) throws {
        var responder = Self.responder()
        let actions = responder.receive(request, now: 0)
        #expect(actions.first == .send(try SMPPDU.decode(answer)))
        #expect(responder.isFinished)
    }

    static func responder(_ configuration: PairingSession.Configuration = accessory) -> PairingSession {
        PairingSession(role: .responder, configuration: configuration, local: peripheral, peer: central, keyPair: keysB, random: .repeating(7))
    }

    static let request = SMPPDU.pairingRequest(PairingFeatures(ioCapability: .keyboardDisplay, authRequirements: [.bonding, .mitm, .secureConnections],
                                                               initiatorKeys: [.identityKey], responderKeys: [.identityKey])).encode()

    /// The receive preamble, in the order of Zephyr's `bt_smp_recv`, each step before the next:
    /// a reserved code is ignored (§3.3); a command the role does not handle gets Command Not
    /// Supported (0x07) whatever its length or timing; one not allowed now Unspecified Reason
    /// (0x08) whatever its length; a wrong length Invalid Parameters (0x0A). Only then a PDU
    /// reaches the pairing.
    @Test func thePreambleRefusesInZephyrsOrder() throws {
        // Reserved codes (and an empty PDU) are ignored: nothing is sent, the pairing goes on.
        var r = Self.responder()
        for reserved: [UInt8] in [[0x00], [0x0F, 1, 2], [0x1F], [0xFF], []] {
            #expect(r.receive(reserved, now: 0).isEmpty, "\(reserved)")
        }
        #expect(!r.isFinished)
        #expect(r.receive(Self.request, now: 0).first.map { if case .send(.pairingResponse) = $0 { true } else { false } } == true)

        // Unhandled in the role: a responder takes no Pairing Response or Security Request, an
        // initiator no Pairing Request, neither Signing Information; before the length is looked at.
        let unhandled: [(PairingSession.Role, [UInt8])] = [
            (.responder, [0x02, 0x03, 0x00, 0x09, 0x10, 0x02, 0x02]), (.responder, [0x02]), (.responder, [0x0B, 0x0D]),
            (.responder, [0x0A] + [UInt8](repeating: 1, count: 16)), (.initiator, Self.request), (.initiator, [0x0A]),
        ]
        for (role, pdu) in unhandled {
            var p = role == .responder ? Self.responder()
                : PairingSession(role: .initiator, configuration: Self.phone, local: Self.central, peer: Self.peripheral, keyPair: Self.keysA, random: .repeating(7))
            if role == .initiator { _ = p.start(now: 0) }
            #expect(p.receive(pdu, now: 0) == [.send(.pairingFailed(.commandNotSupported)), .failed(.commandNotSupported, byPeer: false)], "\(pdu)")
            #expect(p.isFinished)
        }

        // Not allowed now, before the length: a confirm before the request (of any length);
        // a second Pairing Request; Identity Information before encryption.
        for pdu: [UInt8] in [[0x03], [0x03] + [UInt8](repeating: 0, count: 16), [0x0C, 1, 2], [0x08] + [UInt8](repeating: 0, count: 16)] {
            var p = Self.responder()
            #expect(p.receive(pdu, now: 0).first == .send(.pairingFailed(.unspecifiedReason)), "\(pdu)")
        }
        var twice = Self.responder()
        _ = twice.receive(Self.request, now: 0)
        #expect(twice.receive(Self.request, now: 0).first == .send(.pairingFailed(.unspecifiedReason)))
        // A Pairing Failed not allowed now is never answered, and ends nothing.
        var idle = Self.responder()
        #expect(idle.receive([0x05, 0x08], now: 0).isEmpty && !idle.isFinished)

        // Allowed, but the wrong length: Invalid Parameters (one octet short, one too many).
        for pdu in [Array(Self.request.dropLast()), Self.request + [0]] {
            var p = Self.responder()
            #expect(p.receive(pdu, now: 0).first == .send(.pairingFailed(.invalidParameters)), "\(pdu)")
        }
        var midway = Self.responder()
        _ = midway.receive(Self.request, now: 0)
        #expect(midway.receive(SMPPDU.pairingPublicKey(Self.keysA.publicKey).encode().dropLast(1).map { $0 }, now: 0).first
                == .send(.pairingFailed(.invalidParameters)))

        // Through the preamble: the peer's Pairing Failed ends the pairing, not answered; a
        // reserved reason still ends it.
        for failed: [UInt8] in [[0x05, 0x04], [0x05, 0xEE]] {
            var p = Self.responder()
            _ = p.receive(Self.request, now: 0)
            let reason: SMPFailureReason = failed[1] == 0x04 ? .confirmValueFailed : .unspecifiedReason
            #expect(p.receive(failed, now: 0) == [.failed(reason, byPeer: true)] && p.isFinished)
        }
        // Security Request and Keypress Notification change nothing on the way.
        var initiator = PairingSession(role: .initiator, configuration: Self.phone, local: Self.central, peer: Self.peripheral, keyPair: Self.keysA, random: .repeating(7))
        #expect(initiator.receive([0x0B, 0x0D], now: 0).isEmpty)
        _ = initiator.start(now: 0)
        #expect(initiator.receive([0x0B, 0x0D], now: 0).isEmpty && initiator.receive([0x0E, 0x00], now: 0).isEmpty && !initiator.isFinished)
    }

    /// A responder that requires MITM refuses a phone that can only do Just Works.
    @Test func mitmRequiredRefusesJustWorks() {
        var accessory = Self.accessory
        accessory.ioCapability = .displayOnly
        accessory.requiresMITM = true
        var phone = Self.phone
        phone.ioCapability = .noInputNoOutput
        var pair = Pair(initiator: phone, responder: accessory)
        pair.run()
        #expect(pair.failure(pair.responderActions)! == (.authenticationRequirements, false))
    }

    /// 30 s without an SMP command ends the pairing (§3.4): nothing more is sent or answered.
    @Test func timeout() {
        var initiator = Pair(initiator: Self.phone, responder: Self.accessory).initiator
        _ = initiator.start(now: 100)
        #expect(initiator.tick(now: 129.9).isEmpty)
        #expect(initiator.tick(now: 130) == [.timedOut])
        #expect(initiator.isFinished && initiator.tick(now: 200).isEmpty)
        #expect(initiator.receive(SMPPDU.pairingResponse(PairingFeatures(ioCapability: .noInputNoOutput, authRequirements: [.secureConnections],
                                                                         initiatorKeys: [], responderKeys: [])).encode(), now: 131).isEmpty)
    }

    /// The SMP timer restarts when a command is queued for the peer (§3.4): a responder that
    /// answered at 10 s times out at 40 s, whatever it received since without answering; one
    /// that answered at 5 s, at 35 s. A responder not yet asked to pair has no timer.
    @Test func theTimerRestartsWithEachCommandSent() {
        var r = Self.responder()
        #expect(r.tick(now: 1000).isEmpty && !r.isFinished)
        _ = r.receive(Self.request, now: 10)
        #expect(r.tick(now: 39.9).isEmpty)
        #expect(r.receive([0x0E, 0x01], now: 30).isEmpty)  // received, nothing sent: the timer runs on
        #expect(r.tick(now: 40) == [.timedOut])

        var accessory = Self.accessory
        accessory.ioCapability = .keyboardOnly
        var pair = Pair(initiator: Self.phone, responder: accessory)
        let request = pair.initiator.start(now: 0)
        guard case .send(let pdu)? = request.first else { Issue.record("no request"); return }
        _ = pair.responder.receive(pdu.encode(), now: 5)
        #expect(pair.responder.tick(now: 34.9).isEmpty && pair.responder.tick(now: 35) == [.timedOut])
    }

    // MARK: LE legacy pairing

    static var legacyPhone: PairingSession.Configuration {
        var c = phone
        c.legacy = .only
        return c
    }

    static var legacyAccessory: PairingSession.Configuration {
        var c = accessory
        c.legacy = .allowed
        return c
    }

    /// Our initiator pairs our responder with LE legacy pairing, Just Works: Mconfirm/Mrand and
    /// Sconfirm/Srand, encryption with the STK, then the responder's LTK with EDIV and Rand, and
    /// identities both ways; both sides end with the distributed LTK.
    @Test(arguments: [(PairingSession.LegacyPolicy.only, PairingSession.LegacyPolicy.allowed), (.allowed, .only), (.only, .only)])
    func legacyJustWorksAsInitiatorAgainstOurResponder(initiatorPolicy: PairingSession.LegacyPolicy, responderPolicy: PairingSession.LegacyPolicy) throws {
        var phone = Self.phone, accessory = Self.accessory
        (phone.legacy, accessory.legacy) = (initiatorPolicy, responderPolicy)
        var pair = Pair(initiator: phone, responder: accessory)
        pair.run()
        let i = try #require(pair.initiatorResult, "\(pair.initiatorActions)"), r = try #require(pair.responderResult, "\(pair.responderActions)")
        #expect(i.legacy && r.legacy && i.method == .justWorks && !i.isAuthenticated)
        #expect(i.longTermKey == r.longTermKey && i.ediv == r.ediv && i.rand == r.rand && i.bonded && r.bonded)
        let (stk, readied) = pair.encryptionKeys
        #expect(stk != nil && stk == readied && stk != i.longTermKey)
        #expect(r.peerIRK == Self.phoneIRK && i.peerIRK == Self.accessoryIRK && i.peerAddress == Self.peripheral && r.peerAddress == Self.central)
        #expect(pair.sent(pair.initiatorActions).map(\.first) == [0x01, 0x03, 0x04, 0x08, 0x09])
        #expect(pair.sent(pair.responderActions).map(\.first) == [0x02, 0x03, 0x04, 0x06, 0x07, 0x08, 0x09])
        // The request asks for the responder's EncKey as well as its IdKey; the answer without SC.
        let request = pair.sent(pair.initiatorActions).first, response = pair.sent(pair.responderActions).first
        #expect(request?[6] == 0x03 && response?[6] == 0x03 && response?[3] == (responderPolicy == .only ? 0x01 : 0x09))
    }

    /// Legacy Passkey Entry both ways round: the responder shows and the initiator types, and
    /// the initiator shows and the responder types (TK is the passkey); a wrong passkey fails
    /// the responder's check of Mconfirm with Confirm Value Failed.
    @Test func legacyPasskeyEitherWayAndAWrongOne() throws {
        var accessory = Self.legacyAccessory
        accessory.ioCapability = .displayOnly
        var shows = Pair(initiator: Self.legacyPhone, responder: accessory)
        shows.run()
        let i = try #require(shows.initiatorResult), r = try #require(shows.responderResult)
        #expect(i.method == .passkey(initiatorDisplays: false, responderDisplays: true) && i.isAuthenticated && i.longTermKey == r.longTermKey)
        #expect(shows.initiatorActions.contains(.requestPasskey))

        var phone = Self.legacyPhone
        phone.ioCapability = .displayOnly
        accessory.ioCapability = .keyboardOnly
        phone.fixedPasskey = 654_321
        var types = Pair(initiator: phone, responder: accessory)
        types.run()
        #expect(types.initiatorActions.contains(.displayPasskey(654_321)) && types.responderActions.contains(.requestPasskey))
        #expect(types.initiatorResult?.method == .passkey(initiatorDisplays: true, responderDisplays: false))
        #expect(types.initiatorResult?.longTermKey == types.responderResult?.longTermKey && types.responderResult != nil)

        var wrong = Pair(initiator: phone, responder: accessory)
        wrong.responderTypes = 654_320
        wrong.run()
        #expect(wrong.failure(wrong.responderActions)! == (.confirmValueFailed, false))
        #expect(wrong.failure(wrong.initiatorActions)! == (.confirmValueFailed, true))
        #expect(wrong.initiatorResult == nil && wrong.encryptionKeys == (nil, nil))
    }

    /// Legacy pairing refused: our responder in Secure Connections Only mode refuses a legacy
    /// initiator's request, and our SC-only initiator refuses a legacy responder's answer, both
    /// with Authentication Requirements (0x03).
    @Test func legacyRefusedEitherSide() {
        var scOnlyResponder = Pair(initiator: Self.legacyPhone, responder: Self.accessory)
        scOnlyResponder.run()
        #expect(scOnlyResponder.failure(scOnlyResponder.responderActions)! == (.authenticationRequirements, false))
        var accessory = Self.accessory
        accessory.legacy = .only
        var scOnlyInitiator = Pair(initiator: Self.phone, responder: accessory)
        scOnlyInitiator.run()
        #expect(scOnlyInitiator.failure(scOnlyInitiator.initiatorActions)! == (.authenticationRequirements, false))
        #expect(scOnlyInitiator.sent(scOnlyInitiator.initiatorActions).last == [0x05, 0x03])
    }
}

/// The byte order at the `SMPPDU` boundary, against the spec's sample data (Core 6.0 Vol 3
/// Part H Appendix D, printed MSB-first): each PDU carries the value least significant octet
/// first and decodes back to the very value the toolbox computed with; BlueZ's test vectors,
/// which keep the air order, agree for the public key.
@Suite struct SMPByteOrderTests {
    static func reversed(_ hex: String) -> [UInt8] { Hex.bytes(hex).reversed() }

    @Test func keysTravelLeastSignificantOctetFirst() throws {
        let t = SecurityToolboxTests.self
        // D.1: the public key, X then Y, each reversed: BlueZ's little-endian sample 1.
        let pdu = SMPPDU.pairingPublicKey(try P256KeyPair(privateKey: t.privateA).publicKey).encode()
        #expect(pdu.count == 65 && pdu[0] == 0x0C)
        #expect(Hex.string(pdu[1...]) == "e69d350e480103ccdbfdf4ac1191f4efb9a5f9e9a7832c5e2cbe97f2d203b020"
                + "8bd28915d08e1c742430ed8fc24563765c15525abf9a32636deb2a65499c80dc")
        #expect(try SMPPDU.decode(pdu) == .pairingPublicKey(t.publicA))
        // D.2: f4's confirm value as Pairing Confirm carries it.
        let confirm = SMPPDU.pairingConfirm(SMPCrypto.f4(u: t.u, v: t.v, x: t.n1, z: 0)).encode()
        #expect(confirm == [0x03] + Self.reversed("f2c916f107a9bd1cf1eda1bea974872d"))
        // N1 as Pairing Random carries it decodes to N1.
        #expect(try SMPPDU.decode([0x04] + Self.reversed("d5cb8454d177733effffb2ec712baeab")) == .pairingRandom(t.n1))
        // D.3: f5's LTK as HCI's LE Enable Encryption carries it, and as Encryption Information.
        let ltk = SMPCrypto.f5(w: t.dhKey, n1: t.n1, n2: t.n2, a1: t.a1, a2: t.a2).ltk
        #expect(ltk.wire == Self.reversed("6986791169d7cd23980522b594750a38"))
        #expect(LEEnableEncryption(connectionHandle: 1, longTermKey: ltk.wire).longTermKey == Self.reversed("6986791169d7cd23980522b594750a38"))
        #expect(SMPPDU.encryptionInformation(longTermKey: ltk).encode() == [0x06] + Self.reversed("6986791169d7cd23980522b594750a38"))
        // D.4: f6's check value as DHKey Check carries it.
        let check = SMPCrypto.f6(w: SecurityToolboxTests.k128("2965f176a1084a02fd3f6a20ce636e20"), n1: t.n1, n2: t.n2,
                                 r: SecurityToolboxTests.k128("12a3343bb453bb5408da42d20c2d0fc8"), ioCap: t.f6IOCap, a1: t.a1, a2: t.a2)
        #expect(SMPPDU.pairingDHKeyCheck(check).encode() == [0x0D] + Self.reversed("e3c473989cd0e8c5d26c0b09da958f61"))
        // D.7's IRK as Identity Information carries it.
        let irk = SecurityToolboxTests.k128("ec0234a357c8ad05341010a60a397d9b")
        #expect(SMPPDU.identityInformation(irk: irk).encode() == [0x08] + Self.reversed("ec0234a357c8ad05341010a60a397d9b"))
        #expect(try SMPPDU.decode([0x08] + Self.reversed("ec0234a357c8ad05341010a60a397d9b")) == .identityInformation(irk: irk))
        // The identity address: type, then the address least significant octet first.
        #expect(SMPPDU.identityAddressInformation(random: false, address: t.a1.address).encode() == [0x09, 0x00] + Self.reversed("56123737bfce"))
    }
}

/// SMP's PDUs against Bumble's `bumble.smp`: each of ours parses there as the command it is
/// (by class) with the fields we meant (a few read back by name), and re-serialises to the very
/// same octets.
@Suite struct SMPPDUBumbleTests {
    /// Every PDU, with the class Bumble parses it as and the fields to read back there.
    static var cases: [(SMPPDU, String, String)] {
        let features = PairingFeatures(ioCapability: .keyboardDisplay, authRequirements: [.bonding, .mitm, .secureConnections, .ct2],
                                       maxKeySize: 16, initiatorKeys: [.encryptionKey, .identityKey], responderKeys: [.identityKey, .signingKey])
        return [
            (.pairingRequest(features), "SMP_Pairing_Request_Command", "c.io_capability, c.auth_req, c.initiator_key_distribution, c.responder_key_distribution"),
            (.pairingResponse(features), "SMP_Pairing_Response_Command", "c.maximum_encryption_key_size, c.oob_data_flag"),
            (.pairingConfirm(Key128(wire: 0..<16)), "SMP_Pairing_Confirm_Command", "c.confirm_value.hex()"),
            (.pairingRandom(Key128(wire: 16..<32)), "SMP_Pairing_Random_Command", "c.random_value.hex()"),
            (.pairingFailed(.dhKeyCheckFailed), "SMP_Pairing_Failed_Command", "int(c.reason)"),
            (.pairingPublicKey(P256PublicKey(wire: 0..<64)), "SMP_Pairing_Public_Key_Command", "c.public_key_x.hex(), c.public_key_y.hex()"),
            (.pairingDHKeyCheck(Key128(wire: 100..<116)), "SMP_Pairing_DHKey_Check_Command", "c.dhkey_check.hex()"),
            (.keypressNotification(2), "SMP_Pairing_Keypress_Notification_Command", "int(c.notification_type)"),
            (.encryptionInformation(longTermKey: Key128(wire: 1...16)), "SMP_Encryption_Information_Command", "c.long_term_key.hex()"),
            (.centralIdentification(ediv: 0xBEEF, rand: 0x0102_0304_0506_0708), "SMP_Master_Identification_Command", "c.ediv, c.rand.hex()"),
            (.identityInformation(irk: Key128(wire: 200..<216)), "SMP_Identity_Information_Command", "c.identity_resolving_key.hex()"),
            (.identityAddressInformation(random: true, address: 0xC0FF_EE12_3456), "SMP_Identity_Address_Information_Command", "c.addr_type, str(c.bd_addr)"),
            (.signingInformation(csrk: Key128(wire: 50..<66)), "SMP_Signing_Information_Command", "c.signature_key.hex()"),
            (.securityRequest([.bonding, .mitm, .secureConnections]), "SMP_Security_Request_Command", "c.auth_req"),
        ]
    }

    @Test func everyPDUIsBumblesToo() throws {
        let cases = Self.cases
        let answers = try BumbleOracle.answers(.smp, cases.map { pdu, _, fields in BumbleOracle.Vector("", ours: Hex.string(pdu.encode()), fields: "(\(fields),)") })
        for ((pdu, name, _), answer) in zip(cases, answers) {
            #expect(answer.type == name, "\(pdu): \(answer)")
            #expect(answer.parsed == Hex.string(pdu.encode()), "\(pdu): \(answer)")
        }
        let out = answers.map(\.fields)
        // The fields, as Bumble names them.
        for name in ["IoCapability.KEYBOARD_DISPLAY: 4", "AuthReq.BONDING|MITM|SC|CT2: 45", "KeyDistribution.ENC_KEY|ID_KEY: 3", "KeyDistribution.ID_KEY|SIGN_KEY: 6"] {
            #expect(out[0].contains(name), "\(out[0])")
        }
        #expect(out[4].hasSuffix("(11,)"))
        #expect(out[9].hasSuffix("(48879, '0807060504030201')"), "\(out[9])")
        #expect(out[11].hasSuffix("(1, 'C0:FF:EE:12:34:56')"), "\(out[11])")
    }
}
