import CCrypto

/// A P-256 public key of LE Secure Connections (Core 6.0 Vol 3 Part H §2.3.5.6.1): the point
/// (X, Y). Only a value: whether it is a point of the curve is checked where it is used
/// (`P256.isValidPublicKey`, and every ECDH).
public struct P256PublicKey: Sendable, Hashable {
    public var x: Key256
    public var y: Key256

    public init(x: Key256, y: Key256) {
        self.x = x
        self.y = y
    }

    /// X || Y, 64 octets, each coordinate MSB-first, as the spec prints them.
    public init(octets: some Collection<UInt8>) {
        x = Key256(octets: octets.prefix(32))
        y = Key256(octets: octets.dropFirst(32).prefix(32))
    }

    /// As the Pairing Public Key PDU carries it (§3.5.6): X then Y, each least significant
    /// octet first.
    public init(wire: some Collection<UInt8>) {
        x = Key256(wire: wire.prefix(32))
        y = Key256(wire: wire.dropFirst(32).prefix(32))
    }

    /// X || Y, each MSB-first (libcrypto's order).
    public var octets: [UInt8] { x.octets + y.octets }
    /// X then Y, each least significant octet first (the PDU's order).
    public var wire: [UInt8] { x.wire + y.wire }
}

/// A P-256 key pair for LE Secure Connections pairing (Core 6.0 Vol 3 Part H §2.3.5.6.1).
public struct P256KeyPair: Sendable, Equatable {
    /// The private scalar d.
    public let privateKey: Key256
    /// d·G.
    public let publicKey: P256PublicKey

    /// A fresh key pair from libcrypto's CSPRNG.
    public static func generate() throws(SMPCryptoError) -> P256KeyPair {
        var d = [UInt8](repeating: 0, count: 32)
        var q = [UInt8](repeating: 0, count: 64)
        let status = ccrypto_p256_generate(&d, &q)
        guard status == 0 else { throw SMPCryptoError.from(status: status, "P-256 key generation") }
        return P256KeyPair(privateKey: Key256(octets: d), publicKey: P256PublicKey(octets: q))
    }

    /// The key pair of a given private key (in [1, n-1], else `invalidPrivateKey`): for fixed
    /// test keys such as the debug key of §2.3.5.6.1.
    public init(privateKey: Key256) throws(SMPCryptoError) {
        var q = [UInt8](repeating: 0, count: 64)
        let status = ccrypto_p256_public_key(privateKey.octets, &q)
        guard status == 0 else { throw SMPCryptoError.from(status: status, "P-256 public key") }
        self.init(privateKey: privateKey, publicKey: P256PublicKey(octets: q))
    }

    private init(privateKey: Key256, publicKey: P256PublicKey) {
        self.privateKey = privateKey
        self.publicKey = publicKey
    }

    /// The DHKey with a peer's public key: `P256.dhKey(privateKey:peerPublicKey:)`.
    public func dhKey(peerPublicKey: P256PublicKey) throws(SMPCryptoError) -> Key256 {
        try P256.dhKey(privateKey: privateKey, peerPublicKey: peerPublicKey)
    }
}

/// The P-256 operations of LE Secure Connections on libcrypto (CCrypto).
public enum P256 {
    /// Whether the key is a point of P-256: both coordinates below p, on the curve, and not
    /// the point at infinity (all zeros is refused). LE SC requires this check of the peer's
    /// key before the DHKey (§2.3.5.6.1, the "invalid curve" attack).
    public static func isValidPublicKey(_ publicKey: P256PublicKey) -> Bool {
        ccrypto_p256_check_public_key(publicKey.octets) == 0
    }

    /// The DHKey of §2.3.5.6.1: the X coordinate of privateKey · peerPublicKey (f5's W). Throws
    /// `invalidPublicKey` when the peer's key is not a point of the curve, `invalidPrivateKey`
    /// for a scalar outside [1, n-1].
    public static func dhKey(privateKey: Key256, peerPublicKey: P256PublicKey) throws(SMPCryptoError) -> Key256 {
        var dh = [UInt8](repeating: 0, count: 32)
        let status = ccrypto_p256_ecdh(privateKey.octets, peerPublicKey.octets, &dh)
        guard status == 0 else { throw SMPCryptoError.from(status: status, "ECDH") }
        return Key256(octets: dh)
    }
}
