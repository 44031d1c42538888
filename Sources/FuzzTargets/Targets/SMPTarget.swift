import BLEHost

/// The Security Manager as a peer reaches it: `SMPPDU`'s decoder and a responder's
/// `PairingSession` (LE Secure Connections only: legacy Just Works can be completed by
/// anyone who sees the PDUs), fed the PDUs a hostile central may send, with the user's
/// answers, the link's encryption and time in between.
///
/// Input: records `tag | length (2 octets, LE) | octets`: tag 0–3 an SMP PDU from the peer,
/// 4 the user types the passkey (the octets' first three as a number), 5 the user confirms
/// (octet 0 bit 0: matches), 6 encryption changes (bit 0: on), 7 time passes (octet 0 seconds).
///
/// Checks: a PDU that decodes encodes back to exactly its octets; every PDU the pairing sends
/// decodes; after it fails or times out it sends nothing more; it never reports a pairing
/// (no key can be agreed without the peer's confirm and check values).
enum SMPTarget {
    static let target = FuzzTarget("smp", "SMPPDU and a responder's LE Secure Connections pairing: any PDUs from a central", seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let records = input.records()
        var pairing = PairingSession(role: .responder, configuration: .init(ioCapability: .displayYesNo), local: PairingAddress(0xC0FF_EE00_00A0, random: false),
                                     peer: PairingAddress(0xF0F1_F2F3_F4F5, random: true), keyPair: keyPair, random: .repeating(0x42))
        var now = 0.0
        var ended = false
        for (tag, octets) in records {
            var actions: [PairingSession.Action] = []
            switch tag & 7 {
            case 0...3:
                if let pdu = try? SMPPDU.decode(octets) { require(pdu.encode() == octets, "\(pdu) does not re-encode to its octets") }
                actions = pairing.receive(octets, now: now)
            case 4:
                let d = octets + [0, 0, 0]
                actions = pairing.enterPasskey(UInt32(d[0]) | UInt32(d[1]) << 8 | UInt32(d[2]) << 16, now: now)
            case 5: actions = pairing.confirmNumber((octets.first ?? 0) & 1 == 1, now: now)
            case 6: actions = pairing.encryptionChanged(enabled: (octets.first ?? 0) & 1 == 1, now: now)
            default:
                now += Double(octets.first ?? 0)
                actions = pairing.tick(now: now)
            }
            if ended { require(actions.isEmpty, "a pairing that had ended acted: \(actions)") }
            for a in actions {
                switch a {
                case .send(let pdu): require((try? SMPPDU.decode(pdu.encode())) == pdu, "a sent PDU that does not decode: \(pdu)")
                case .paired: require(false, "paired with a peer that cannot know the keys")
                case .failed, .timedOut: ended = true
                default: break
                }
            }
        }
    }

    /// The spec's debug key pair (§2.3.5.6.1); fuzzing needs no secret.
    static let keyPair = try! P256KeyPair(privateKey: Key256(high: Key128(high: 0x3F49_F6D4_A3C5_5F38, low: 0x74C9_B3E3_D210_3F50),
                                                             low: Key128(high: 0x4AFF_607B_EB40_B799, low: 0x5899_B8A6_CD3C_1ABD)))

    /// A central's opening (Pairing Request, its public key: the debug key's, a valid point,
    /// then a random value), one of every PDU, and the user's and link's events.
    static func seeds() -> [[UInt8]] {
        let request = SMPPDU.pairingRequest(PairingFeatures(ioCapability: .keyboardDisplay, authRequirements: [.bonding, .mitm, .secureConnections],
                                                            initiatorKeys: [.identityKey], responderKeys: [.identityKey]))
        let publicKey = SMPPDU.pairingPublicKey(keyPair.publicKey)
        let every: [SMPPDU] = [request, .pairingResponse(PairingFeatures(ioCapability: .noInputNoOutput, authRequirements: [.secureConnections], initiatorKeys: [], responderKeys: [])),
                               .pairingConfirm(Key128(wire: 0..<16)), .pairingRandom(Key128(wire: 16..<32)), .pairingFailed(.confirmValueFailed),
                               .encryptionInformation(longTermKey: Key128(wire: 0..<16)), .centralIdentification(ediv: 0x1234, rand: 0x0102_0304_0506_0708),
                               .identityInformation(irk: Key128(wire: 0..<16)), .identityAddressInformation(random: true, address: 0xC0FF_EE00_0001),
                               .signingInformation(csrk: Key128(wire: 0..<16)), .securityRequest([.bonding, .mitm]), publicKey,
                               .pairingDHKeyCheck(Key128(wire: 0..<16)), .keypressNotification(1)]
        let opening = FuzzInput.records([(0, request.encode()), (1, publicKey.encode()), (5, [1]), (2, SMPPDU.pairingRandom(Key128(wire: 0..<16)).encode()),
                                         (3, SMPPDU.pairingDHKeyCheck(Key128(wire: 0..<16)).encode()), (6, [1]), (7, [31])])
        return [opening] + every.map { FuzzInput.records([(0, $0.encode())]) }
    }
}
