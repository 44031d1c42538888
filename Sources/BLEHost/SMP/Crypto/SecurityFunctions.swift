import CCrypto

/// The SMP cryptographic toolbox of Core 6.0 Vol 3 Part H §2.2: the legacy functions (e, ah,
/// c1, s1) and those of LE Secure Connections (f4, f5, f6, g2), on libcrypto.
///
/// Octet order: every argument and result is **MSB-first**, exactly as the specification
/// writes the definitions and prints the sample data of Appendix D (the leftmost octet of a
/// concatenation such as `pres || preq` is the most significant). SMP carries these values
/// **little-endian** on the air (Pairing Random, Pairing Confirm, DHKey Check, the LTK in
/// HCI_LE_Enable_Encryption, addresses): reverse a PDU's field before passing it, and reverse a
/// result before sending it. Every function throws `SMPCryptoError.wrongLength` for a value of
/// the wrong size; none traps.
public enum SMPCrypto {
    /// §2.2.1 e, the security function: AES-128 of one block, e(key, plaintextData). Key,
    /// plaintext and result are 16 octets, MSB-first.
    public static func e(key: [UInt8], plaintext: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try SMPCryptoError.check(key, 16, "e key")
        try SMPCryptoError.check(plaintext, 16, "e plaintext")
        var out = [UInt8](repeating: 0, count: 16)
        guard ccrypto_aes128_encrypt(key, plaintext, &out) == 0 else { throw .backendFailed("AES-128") }
        return out
    }

    /// §2.2.2 ah, the random address hash: ah(k, r) = e(k, r') mod 2^24 with r' = 104 zero bits
    /// || r. `k` is the IRK (16 octets), `r` the 24-bit prand (3 octets), the result the 24-bit
    /// hash (3 octets); all MSB-first. (A resolvable private address is hash || prand on the
    /// air little-endian: its octets 0–2 are the hash reversed.)
    public static func ah(k: [UInt8], r: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try SMPCryptoError.check(r, 3, "ah r")
        let out = try e(key: k, plaintext: [UInt8](repeating: 0, count: 13) + r)
        return Array(out[13..<16])
    }

    /// §2.2.3 c1, the legacy confirm value: c1(k, r, preq, pres, iat, rat, ia, ra) =
    /// e(k, e(k, r XOR p1) XOR p2), p1 = pres || preq || rat' || iat', p2 = padding (32 zero
    /// bits) || ia || ra. `k` (TK) and `r` are 16 octets; `preq`/`pres` the 7 octets of the
    /// Pairing Request/Response command (MSB-first: as the spec prints them, the code octet
    /// last); `iat`/`rat` the address types (0 public, 1 random: only bit 0 is used); `ia`/`ra`
    /// the 6-octet addresses. All MSB-first; the result is 16 octets.
    public static func c1(k: [UInt8], r: [UInt8], preq: [UInt8], pres: [UInt8],
                          iat: UInt8, rat: UInt8, ia: [UInt8], ra: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try SMPCryptoError.check(r, 16, "c1 r")
        try SMPCryptoError.check(preq, 7, "c1 preq")
        try SMPCryptoError.check(pres, 7, "c1 pres")
        try SMPCryptoError.check(ia, 6, "c1 ia")
        try SMPCryptoError.check(ra, 6, "c1 ra")
        let p1 = pres + preq + [rat & 1, iat & 1]
        let p2 = [UInt8](repeating: 0, count: 4) + ia + ra
        let first = try e(key: k, plaintext: xor(r, p1))
        return try e(key: k, plaintext: xor(first, p2))
    }

    /// §2.2.4 s1, the legacy key generation function (STK): s1(k, r1, r2) = e(k, r') with
    /// r' = the least significant 64 bits of r1 || those of r2. `k` (TK), `r1` (Srand),
    /// `r2` (Mrand) and the result are 16 octets, MSB-first.
    public static func s1(k: [UInt8], r1: [UInt8], r2: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try SMPCryptoError.check(r1, 16, "s1 r1")
        try SMPCryptoError.check(r2, 16, "s1 r2")
        return try e(key: k, plaintext: Array(r1[8..<16]) + Array(r2[8..<16]))
    }

    /// §2.2.6 f4, the LE SC confirm value: f4(U, V, X, Z) = AES-CMAC_X(U || V || Z). `u` and
    /// `v` are 32 octets (public-key X coordinates: PKax, PKbx), `x` the 16-octet key (a nonce),
    /// `z` one octet (0 for Just Works and Numeric Comparison; 0x80 | bit ri for Passkey Entry).
    /// All MSB-first; the result is 16 octets.
    public static func f4(u: [UInt8], v: [UInt8], x: [UInt8], z: UInt8) throws(SMPCryptoError) -> [UInt8] {
        try SMPCryptoError.check(u, 32, "f4 U")
        try SMPCryptoError.check(v, 32, "f4 V")
        return try AESCMAC.mac(key: x, message: u + v + [z])
    }

    /// The SALT of f5 (§2.2.7), MSB-first.
    static let f5Salt: [UInt8] = [0x6C, 0x88, 0x83, 0x91, 0xAA, 0xF5, 0xA5, 0x38, 0x60, 0x37, 0x0B, 0xDB, 0x5A, 0x60, 0x83, 0xBE]
    /// keyID "btle" of f5 (§2.2.7), MSB-first.
    static let f5KeyID: [UInt8] = [0x62, 0x74, 0x6C, 0x65]

    /// §2.2.7 f5, the LE SC key generation function: T = AES-CMAC_SALT(W), then
    /// MacKey = AES-CMAC_T(0 || keyID || N1 || N2 || A1 || A2 || 256) and
    /// LTK = AES-CMAC_T(1 || keyID || N1 || N2 || A1 || A2 || 256). `w` is the DHKey (32
    /// octets), `n1`/`n2` the nonces (16 octets), `a1`/`a2` the 7-octet addresses: the address
    /// type octet (0 public, 1 random) then the 6-octet address. All MSB-first; both results
    /// are 16 octets.
    public static func f5(w: [UInt8], n1: [UInt8], n2: [UInt8], a1: [UInt8], a2: [UInt8]) throws(SMPCryptoError) -> (macKey: [UInt8], ltk: [UInt8]) {
        try SMPCryptoError.check(w, 32, "f5 W")
        try SMPCryptoError.check(n1, 16, "f5 N1")
        try SMPCryptoError.check(n2, 16, "f5 N2")
        try SMPCryptoError.check(a1, 7, "f5 A1")
        try SMPCryptoError.check(a2, 7, "f5 A2")
        let t = try AESCMAC.mac(key: f5Salt, message: w)
        let body = f5KeyID + n1 + n2 + a1 + a2 + [0x01, 0x00]
        return (try AESCMAC.mac(key: t, message: [0] + body), try AESCMAC.mac(key: t, message: [1] + body))
    }

    /// §2.2.8 f6, the LE SC check value (DHKey Check Ea/Eb): f6(W, N1, N2, R, IOcap, A1, A2) =
    /// AES-CMAC_W(N1 || N2 || R || IOcap || A1 || A2). `w` is the MacKey (16 octets), `n1`,
    /// `n2`, `r` 16 octets, `ioCap` the 3 octets AuthReq || OOB data flag || IO capability,
    /// `a1`/`a2` 7 octets (type then address). All MSB-first; the result is 16 octets.
    public static func f6(w: [UInt8], n1: [UInt8], n2: [UInt8], r: [UInt8], ioCap: [UInt8],
                          a1: [UInt8], a2: [UInt8]) throws(SMPCryptoError) -> [UInt8] {
        try SMPCryptoError.check(n1, 16, "f6 N1")
        try SMPCryptoError.check(n2, 16, "f6 N2")
        try SMPCryptoError.check(r, 16, "f6 R")
        try SMPCryptoError.check(ioCap, 3, "f6 IOcap")
        try SMPCryptoError.check(a1, 7, "f6 A1")
        try SMPCryptoError.check(a2, 7, "f6 A2")
        return try AESCMAC.mac(key: w, message: n1 + n2 + r + ioCap + a1 + a2)
    }

    /// §2.2.9 g2, the LE SC numeric comparison value: g2(U, V, X, Y) = AES-CMAC_X(U || V || Y)
    /// mod 2^32. `u`, `v` are 32 octets (PKax, PKbx), `x`, `y` 16 octets (Na, Nb), all
    /// MSB-first. The result is the 32-bit value; the six digits shown are it mod 10^6
    /// (`comparisonNumber`).
    public static func g2(u: [UInt8], v: [UInt8], x: [UInt8], y: [UInt8]) throws(SMPCryptoError) -> UInt32 {
        try SMPCryptoError.check(u, 32, "g2 U")
        try SMPCryptoError.check(v, 32, "g2 V")
        try SMPCryptoError.check(y, 16, "g2 Y")
        let mac = try AESCMAC.mac(key: x, message: u + v + y)
        return mac[12..<16].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The six-digit number Numeric Comparison displays: g2's value mod 10^6 (§2.3.5.6.2).
    public static func comparisonNumber(_ g2Value: UInt32) -> UInt32 { g2Value % 1_000_000 }

    private static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        zip(a, b).map { $0 ^ $1 }
    }
}
