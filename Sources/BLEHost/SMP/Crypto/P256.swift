import CCrypto

/// A P-256 key pair for LE Secure Connections pairing (Core 6.0 Vol 3 Part H §2.3.5.6.1).
///
/// Octet order: every key here is **MSB-first** (big-endian), as the specification prints
/// them: `privateKey` is the 32-octet scalar, `publicKey` is X || Y (32 octets each, each
/// MSB-first). The SMP Pairing Public Key PDU carries X and Y each **little-endian**: reverse
/// each coordinate separately (`P256.publicKey(fromAir:)`, `P256.airOrder(_:)`).
public struct P256KeyPair: Sendable, Equatable {
    /// The private scalar d, 32 octets MSB-first.
    public let privateKey: [UInt8]
    /// The public key d·G as X || Y, 64 octets, each coordinate MSB-first.
    public let publicKey: [UInt8]

    /// A fresh key pair from libcrypto's CSPRNG.
    public static func generate() throws(SMPCryptoError) -> P256KeyPair {
        var d = [UInt8](repeating: 0, count: 32)
        var q = [UInt8](repeating: 0, count: 64)
        let status = ccrypto_p256_generate(&d, &q)
        guard status == 0 else { throw SMPCryptoError.from(status: status, "P-256 key generation") }
        return P256KeyPair(privateKey: d, publicKey: q)
    }

    /// The key pair of a given private key (32 octets MSB-first, in [1, n-1]): for fixed
    /// test keys such as the debug key of §2.3.5.6.1.
    public init(privateKey: [UInt8]) throws(SMPCryptoError) {
        try SMPCryptoError.check(privateKey, 32, "P-256 private key")
        var q = [UInt8](repeating: 0, count: 64)
        let status = ccrypto_p256_public_key(privateKey, &q)
        guard status == 0 else { throw SMPCryptoError.from(status: status, "P-256 public key") }
        self.init(privateKey: privateKey, publicKey: q)
    }

    private init(privateKey: [UInt8], publicKey: [UInt8]) {
        self.privateKey = privateKey
        self.publicKey = publicKey
    }

    /// The DHKey with a peer's public key (X || Y MSB-first): `P256.dhKey(privateKey:peerPublicKey:)`.
    public func dhKey(peerPublicKey: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try P256.dhKey(privateKey: privateKey, peerPublicKey: peerPublicKey)
    }
}

/// The P-256 operations of LE Secure Connections on libcrypto (CCrypto).
public enum P256 {
    /// Whether X || Y (64 octets, each coordinate MSB-first) is a point of P-256: both
    /// coordinates below p, the point on the curve and not the point at infinity (all zeros is
    /// refused). LE SC requires this check of the peer's key before computing the DHKey
    /// (the "invalid curve" attack). A wrong length is simply not valid.
    public static func isValidPublicKey(_ publicKey: [UInt8]) -> Bool {
        publicKey.count == 64 && ccrypto_p256_check_public_key(publicKey) == 0
    }

    /// The DHKey of §2.3.5.6.1: the X coordinate of privateKey · peerPublicKey, 32 octets
    /// MSB-first (f5's W as the specification prints it). `privateKey` is 32 octets MSB-first,
    /// `peerPublicKey` X || Y MSB-first. Throws `invalidPublicKey` when the peer's key is not
    /// on the curve, `invalidPrivateKey` for a scalar outside [1, n-1].
    public static func dhKey(privateKey: [UInt8], peerPublicKey: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try SMPCryptoError.check(privateKey, 32, "P-256 private key")
        try SMPCryptoError.check(peerPublicKey, 64, "P-256 public key")
        var dh = [UInt8](repeating: 0, count: 32)
        let status = ccrypto_p256_ecdh(privateKey, peerPublicKey, &dh)
        guard status == 0 else { throw SMPCryptoError.from(status: status, "ECDH") }
        return dh
    }

    /// A public key as the Pairing Public Key PDU carries it (X then Y, each little-endian,
    /// 64 octets) turned MSB-first (X || Y, each big-endian); the same reversal maps back
    /// (`airOrder`).
    public static func publicKey(fromAir air: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try SMPCryptoError.check(air, 64, "P-256 public key")
        return Array(air[0..<32].reversed()) + Array(air[32..<64].reversed())
    }

    /// X || Y MSB-first as the Pairing Public Key PDU carries it: each coordinate little-endian.
    public static func airOrder(_ publicKey: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try self.publicKey(fromAir: publicKey)
    }
}

/// Random octets from libcrypto's CSPRNG (RAND_bytes): for pairing random values (Mrand,
/// Srand, Na, Nb), keys and the like.
public enum SecureRandom {
    /// `count` random octets.
    public static func bytes(_ count: Int) throws(SMPCryptoError) -> [UInt8] {
        guard count >= 0 else { throw .wrongLength("random octets", expected: 0, actual: count) }
        var buffer = [UInt8](repeating: 0, count: count)
        guard ccrypto_random(&buffer, buffer.count) == 0 else { throw .backendFailed("RAND_bytes") }
        return buffer
    }
}
