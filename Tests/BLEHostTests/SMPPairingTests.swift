import BLEHost
import EmulatorMath
import Foundation
import TestSupport
import Testing

/// LE Secure Connections pairing, initiator against responder, both this project's state
/// machine, with the spec's sample key pairs (Appendix D.1) and seeded nonces: every method of
/// Table 2.8 agrees on one LTK; the failures a user or an attacker causes end with the reason
/// the specification names, in the octets Pairing Failed carries, and leave no keys; and the
/// SMP timeout. (Against an implementation that is not ours: `SMPBumbleTests`.)
@Suite struct SMPPairingTests {
    static let central = PairingAddress(0xF0F1_F2F3_F4F5, random: true)
    static let peripheral = PairingAddress(0xC0FF_EE00_00A0, random: false)
    static let keysA = try! P256KeyPair(privateKey: SecurityToolboxTests.privateA)
    static let keysB = try! P256KeyPair(privateKey: SecurityToolboxTests.privateB)

    /// Seeded octets for nonces and passkeys.
    final class Seeded: @unchecked Sendable {
        private var rng: SplitMix64
        private let lock = NSLock()
        init(_ seed: UInt64) { rng = SplitMix64(seed: seed) }
        func bytes(_ n: Int) -> [UInt8] {
            lock.lock()
            defer { lock.unlock() }
            return (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        }
    }

    /// Two pairings wired PDU to PDU, with the users' parts played as asked.
    struct Pair {
        var initiator: SecureConnectionsPairing
        var responder: SecureConnectionsPairing
        /// Every action of each side, in order.
        var initiatorActions: [SecureConnectionsPairing.Action] = []
        var responderActions: [SecureConnectionsPairing.Action] = []
        /// What the initiator's user types when asked (nil: the passkey the responder shows).
        var typedPasskey: UInt32?
        var numbersMatch = true
        /// Alters a PDU on its way (an attacker on the link): (from initiator?, octets) -> octets.
        var tamper: (@Sendable (Bool, [UInt8]) -> [UInt8])?

        init(initiator: SecureConnectionsPairing.Configuration, responder: SecureConnectionsPairing.Configuration, seed: UInt64 = 1) {
            let random = Seeded(seed)
            self.initiator = SecureConnectionsPairing(role: .initiator, configuration: initiator, local: SMPPairingTests.central,
                                                      peer: SMPPairingTests.peripheral, keyPair: SMPPairingTests.keysA) { random.bytes($0) }
            self.responder = SecureConnectionsPairing(role: .responder, configuration: responder, local: SMPPairingTests.peripheral,
                                                      peer: SMPPairingTests.central, keyPair: SMPPairingTests.keysB) { random.bytes($0) }
        }

        /// Runs the pairing to its end: PDUs both ways, users' answers, encryption when asked.
        mutating func run() {
            var toResponder: [[UInt8]] = [], toInitiator: [[UInt8]] = []
            var shown: UInt32?
            var pendingInitiator = initiator.start(now: 0)
            var pendingResponder: [SecureConnectionsPairing.Action] = []
            var steps = 0
            while (!pendingInitiator.isEmpty || !pendingResponder.isEmpty || !toResponder.isEmpty || !toInitiator.isEmpty), steps < 500 {
                steps += 1
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
                    case .requestPasskey: pendingResponder += responder.enterPasskey(shown ?? 0, now: 1)
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
        func failure(_ actions: [SecureConnectionsPairing.Action]) -> (SMPFailureReason, Bool)? {
            actions.lazy.compactMap { if case let .failed(r, byPeer) = $0 { (r, byPeer) } else { nil } }.first
        }
        func sent(_ actions: [SecureConnectionsPairing.Action]) -> [[UInt8]] {
            actions.compactMap { if case .send(let p) = $0 { p.encode() } else { nil } }
        }
    }

    static let phone = SecureConnectionsPairing.Configuration(ioCapability: .keyboardDisplay,
                                                              identity: PairingIdentity(irk: Array(repeating: 0xA5, count: 16), address: central))
    static let accessory = SecureConnectionsPairing.Configuration(ioCapability: .noInputNoOutput,
                                                                  identity: PairingIdentity(irk: Array(repeating: 0x5A, count: 16), address: peripheral))

    @Test func justWorksAgreesOnOneKeyAndExchangesIdentities() throws {
        var pair = Pair(initiator: Self.phone, responder: Self.accessory)
        pair.run()
        let i = try #require(pair.initiatorResult), r = try #require(pair.responderResult)
        #expect(i.longTermKey == r.longTermKey && i.longTermKey.count == 16)
        #expect(i.method == .justWorks && !i.isAuthenticated && i.bonded && r.bonded)
        // Each side holds the other's identity.
        #expect(r.peerIRK == Array(repeating: 0xA5, count: 16) && r.peerAddress == Self.central)
        #expect(i.peerIRK == Array(repeating: 0x5A, count: 16) && i.peerAddress == Self.peripheral)
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
        ([0x01, 0x04, 0x00, 0x0D, 0x10, 0x02], [0x05, 0x0A]),  // too short
        ([0x1F], [0x05, 0x07]),  // unknown code: Command Not Supported
        ([0x03] + [UInt8](repeating: 0, count: 16), [0x05, 0x08]),  // a confirm before any request
    ])
    func refusedRequests(request: [UInt8], answer: [UInt8]) {
        var responder = SecureConnectionsPairing(role: .responder, configuration: Self.accessory, local: Self.peripheral, peer: Self.central,
                                                 keyPair: Self.keysB) { Array(repeating: 7, count: $0) }
        let actions = responder.receive(request, now: 0)
        #expect(actions.first == .send(try! SMPPDU.decode(answer)))
        #expect(responder.isFinished)
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

    /// 30 s without an SMP command ends the pairing (§3.4): nothing more is sent.
    @Test func timeout() {
        var initiator = Pair(initiator: Self.phone, responder: Self.accessory).initiator
        _ = initiator.start(now: 100)
        #expect(initiator.tick(now: 129.9).isEmpty)
        #expect(initiator.tick(now: 130) == [.timedOut])
        #expect(initiator.receive(SMPPDU.pairingResponse(PairingFeatures(ioCapability: .noInputNoOutput, authRequirements: [.secureConnections],
                                                                         initiatorKeys: [], responderKeys: [])).encode(), now: 131).isEmpty)
    }
}

/// SMP's PDUs against Bumble's `bumble.smp`: each of ours parses there as the command it is
/// (by class) with the fields we meant (a few read back by name), and re-serialises to the very
/// same octets.
@Suite struct SMPPDUBumbleTests {
    @Test func everyPDUIsBumblesToo() throws {
        let features = PairingFeatures(ioCapability: .keyboardDisplay, authRequirements: [.bonding, .mitm, .secureConnections, .ct2],
                                       maxKeySize: 16, initiatorKeys: [.encryptionKey, .identityKey], responderKeys: [.identityKey, .signingKey])
        let cases: [(SMPPDU, String, String)] = [
            (.pairingRequest(features), "SMP_Pairing_Request_Command", "c.io_capability, c.auth_req, c.initiator_key_distribution, c.responder_key_distribution"),
            (.pairingResponse(features), "SMP_Pairing_Response_Command", "c.maximum_encryption_key_size, c.oob_data_flag"),
            (.pairingConfirm(Array(0..<16)), "SMP_Pairing_Confirm_Command", "c.confirm_value.hex()"),
            (.pairingRandom(Array(16..<32)), "SMP_Pairing_Random_Command", "c.random_value.hex()"),
            (.pairingFailed(.dhKeyCheckFailed), "SMP_Pairing_Failed_Command", "int(c.reason)"),
            (.pairingPublicKey(x: Array(0..<32), y: Array(32..<64)), "SMP_Pairing_Public_Key_Command", "c.public_key_x.hex(), c.public_key_y.hex()"),
            (.pairingDHKeyCheck(Array(100..<116)), "SMP_Pairing_DHKey_Check_Command", "c.dhkey_check.hex()"),
            (.keypressNotification(2), "SMP_Pairing_Keypress_Notification_Command", "int(c.notification_type)"),
            (.encryptionInformation(longTermKey: Array(1...16)), "SMP_Encryption_Information_Command", "c.long_term_key.hex()"),
            (.centralIdentification(ediv: 0xBEEF, rand: 0x0102_0304_0506_0708), "SMP_Master_Identification_Command", "c.ediv, c.rand.hex()"),
            (.identityInformation(irk: Array(200..<216)), "SMP_Identity_Information_Command", "c.identity_resolving_key.hex()"),
            (.identityAddressInformation(random: true, address: 0xC0FF_EE12_3456), "SMP_Identity_Address_Information_Command", "c.addr_type, str(c.bd_addr)"),
            (.signingInformation(csrk: Array(50..<66)), "SMP_Signing_Information_Command", "c.signature_key.hex()"),
            (.securityRequest([.bonding, .mitm, .secureConnections]), "SMP_Security_Request_Command", "c.auth_req"),
        ]
        var script = "import sys\nfrom bumble import smp\nfor line in sys.argv[1:]:\n    h, fields = line.split(' ', 1)\n"
        script += "    c = smp.SMP_Command.from_bytes(bytes.fromhex(h))\n    print(type(c).__name__, bytes(c).hex(), repr(eval(fields)))\n"
        let lines = cases.map { pdu, _, fields in pdu.encode().map { String(format: "%02x", $0) }.joined() + " (" + fields + ",)" }
        let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + lines, timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout.split(separator: "\n").map(String.init)
        try #require(out.count == cases.count, "\(r.stdout) \(r.stderr)")
        for ((pdu, name, _), line) in zip(cases, out) {
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            #expect(parts[0] == name, "\(pdu): \(line)")
            #expect(parts[1] == pdu.encode().map { String(format: "%02x", $0) }.joined(), "\(pdu): \(line)")
        }
        // The fields, as Bumble names them.
        for name in ["IoCapability.KEYBOARD_DISPLAY: 4", "AuthReq.BONDING|MITM|SC|CT2: 45", "KeyDistribution.ENC_KEY|ID_KEY: 3", "KeyDistribution.ID_KEY|SIGN_KEY: 6"] {
            #expect(out[0].contains(name), "\(out[0])")
        }
        #expect(out[4].hasSuffix("(11,)"))
        #expect(out[9].hasSuffix("(48879, '0807060504030201')"), "\(out[9])")
        #expect(out[11].hasSuffix("(1, 'C0:FF:EE:12:34:56')"), "\(out[11])")
    }
}
