/// Phase 3 of a pairing, key distribution (Core 6.0 Vol 3 Part H §3.6.1), on the encrypted
/// link: the responder distributes first, then the initiator; each side's keys in the order of
/// Figure 3.11 (EncKey: Encryption Information, Central Identification; IdKey: Identity
/// Information, Identity Address Information). LE Secure Connections ignores EncKey (its LTK is
/// derived, never sent); SignKey and LinkKey are never agreed here.
struct KeyDistributionPhase: Sendable {
    /// An LE legacy LTK, named by its EDIV and Rand.
    struct NamedKey: Sendable, Equatable {
        var ltk: Key128
        var ediv: UInt16
        var rand: UInt64
    }

    /// What this side distributes, and what is still to come from the peer.
    private(set) var toSend: KeyDistribution
    private(set) var expected: KeyDistribution
    /// What the peer distributed.
    private(set) var peerKey: NamedKey?
    private(set) var peerIRK: Key128?
    private(set) var peerIdentity: PairingAddress?
    /// The LTK this side distributed.
    private(set) var distributed: NamedKey?
    private var peerLTK: Key128?

    init(sending: KeyDistribution, expecting: KeyDistribution) {
        toSend = sending
        expected = expecting
    }

    var isComplete: Bool { expected.isEmpty }

    /// The peer's next key PDU, in Figure 3.11's order.
    var expectedCodes: Set<SMPCode> {
        if expected.contains(.encryptionKey) { return [peerLTK == nil ? .encryptionInformation : .centralIdentification] }
        if expected.contains(.identityKey) { return [peerIRK == nil ? .identityInformation : .identityAddressInformation] }
        return []
    }

    mutating func receive(_ pdu: SMPPDU) {
        switch pdu {
        case .encryptionInformation(let ltk): peerLTK = ltk
        case let .centralIdentification(ediv, rand):
            peerKey = peerLTK.map { NamedKey(ltk: $0, ediv: ediv, rand: rand) }
            expected.remove(.encryptionKey)
        case .identityInformation(let irk): peerIRK = irk
        case let .identityAddressInformation(random, address):
            peerIdentity = PairingAddress(address, random: random)
            expected.remove(.identityKey)
        default: break
        }
    }

    /// This side's keys: a fresh LTK with its EDIV and Rand (EncKey), the identity (IdKey).
    mutating func distribute(identity: PairingIdentity?, random: RandomOctets) -> [SMPPDU] {
        var out: [SMPPDU] = []
        if toSend.contains(.encryptionKey) {
            let key = NamedKey(ltk: random.key128(), ediv: random.uint16(), rand: random.uint64())
            distributed = key
            out += [.encryptionInformation(longTermKey: key.ltk), .centralIdentification(ediv: key.ediv, rand: key.rand)]
        }
        if toSend.contains(.identityKey), let id = identity {
            out += [.identityInformation(irk: id.irk), .identityAddressInformation(random: id.address.isRandom, address: id.address.address)]
        }
        toSend = []
        return out
    }
}
