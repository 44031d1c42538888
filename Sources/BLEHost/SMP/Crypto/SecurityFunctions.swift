import CCrypto
import ReflectorFirmware

/// The SMP cryptographic toolbox of Core 6.0 Vol 3 Part H §2.2: the legacy functions (e, ah,
/// c1, s1) and those of LE Secure Connections (f4, f5, f6, g2), on libcrypto.
///
/// Every value is typed at its size (`Key128`, `Key256`, `PairingAddress`, `PairingFeatures`)
/// and MSB-first, exactly as the spec defines the functions and prints Appendix D's sample
/// data; the order SMP carries them in is the `SMPPDU` boundary's business, not the toolbox's.
/// None can fail on its input; libcrypto failing to allocate traps.
public enum SMPCrypto {
    /// §2.2.1 e, the security function: AES-128 of one block, e(key, plaintextData).
    public static func e(key: Key128, plaintext: Key128) -> Key128 {
        var out = [UInt8](repeating: 0, count: 16)
        precondition(ccrypto_aes128_encrypt(key.octets, plaintext.octets, &out) == 0, "libcrypto AES-128 failed")
        return Key128(octets: out)
    }

    /// §2.2.2 ah, the random address hash: ah(k, r) = e(k, r') mod 2^24, r' = 104 zero bits || r.
    /// `k` is the IRK, `r` the 24-bit prand; the result is the 24-bit hash.
    public static func ah(k: Key128, r: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: e(key: k, plaintext: Key128(UInt64(r & 0xFF_FFFF))).low) & 0xFF_FFFF
    }

    /// §2.2.3 c1, the legacy confirm value: e(k, e(k, r XOR p1) XOR p2), with
    /// p1 = pres || preq || rat' || iat' and p2 = 32 zero bits || ia || ra. `k` is TK, `r`
    /// Mrand or Srand, `preq`/`pres` the Pairing Request and Response as exchanged, `ia`/`ra`
    /// the initiator's and the responder's addresses (their types are iat and rat).
    public static func c1(k: Key128, r: Key128, preq: PairingFeatures, pres: PairingFeatures,
                          ia: PairingAddress, ra: PairingAddress) -> Key128 {
        // Least significant first, p1 is iat', rat', then the two commands as exchanged.
        let p1 = Key128(wire: [ia.isRandom ? 1 : 0, ra.isRandom ? 1 : 0] + command(0x01, preq) + command(0x02, pres))
        let p2 = Key128(high: ia.address >> 16, low: ia.address << 48 | ra.address)
        return e(key: k, plaintext: e(key: k, plaintext: r ^ p1) ^ p2)
    }

    /// §2.2.4 s1, the legacy key generation function (STK): e(k, r'), r' = the least
    /// significant 64 bits of r1 || those of r2. `k` is TK, `r1` Srand, `r2` Mrand.
    public static func s1(k: Key128, r1: Key128, r2: Key128) -> Key128 {
        e(key: k, plaintext: Key128(high: r1.low, low: r2.low))
    }

    /// §2.2.6 f4, the LE SC confirm value: AES-CMAC_X(U || V || Z). `u` and `v` are public-key
    /// X coordinates (PKax, PKbx), `x` a nonce, `z` 0 for Just Works and Numeric Comparison,
    /// 0x80 | the passkey's bit ri for Passkey Entry.
    public static func f4(u: Key256, v: Key256, x: Key128, z: UInt8) -> Key128 {
        AESCMAC.mac(key: x, message: u.octets + v.octets + [z])
    }

    /// The SALT of f5 (§2.2.7).
    static let f5Salt = Key128(high: 0x6C88_8391_AAF5_A538, low: 0x6037_0BDB_5A60_83BE)
    /// keyID "btle" of f5 (§2.2.7).
    static let f5KeyID: [UInt8] = [0x62, 0x74, 0x6C, 0x65]

    /// §2.2.7 f5, the LE SC key generation function: T = AES-CMAC_SALT(W), then
    /// MacKey = AES-CMAC_T(0 || keyID || N1 || N2 || A1 || A2 || 256) and LTK the same with 1.
    /// `w` is the DHKey, `n1`/`n2` Na and Nb, `a1`/`a2` the initiator's and responder's
    /// addresses (type octet, then the address).
    public static func f5(w: Key256, n1: Key128, n2: Key128, a1: PairingAddress, a2: PairingAddress) -> (macKey: Key128, ltk: Key128) {
        let t = AESCMAC.mac(key: f5Salt, message: w.octets)
        let body = f5KeyID + n1.octets + n2.octets + a1.typedOctets + a2.typedOctets + [0x01, 0x00]
        return (AESCMAC.mac(key: t, message: [0] + body), AESCMAC.mac(key: t, message: [1] + body))
    }

    /// §2.2.8 f6, the LE SC check value (DHKey Check Ea/Eb): AES-CMAC_W(N1 || N2 || R || IOcap
    /// || A1 || A2). `w` is the MacKey; IOcap is AuthReq || OOB data flag || IO capability of
    /// `ioCap`, the features of the side whose check it is.
    public static func f6(w: Key128, n1: Key128, n2: Key128, r: Key128, ioCap: PairingFeatures,
                          a1: PairingAddress, a2: PairingAddress) -> Key128 {
        let io: [UInt8] = [ioCap.authRequirements.rawValue, ioCap.oobDataPresent ? 1 : 0, ioCap.ioCapability.rawValue]
        return AESCMAC.mac(key: w, message: n1.octets + n2.octets + r.octets + io + a1.typedOctets + a2.typedOctets)
    }

    /// §2.2.9 g2, the LE SC numeric comparison value: AES-CMAC_X(U || V || Y) mod 2^32 (`u`, `v`
    /// PKax and PKbx; `x`, `y` Na and Nb). The six digits shown are it mod 10^6 (`comparisonNumber`).
    public static func g2(u: Key256, v: Key256, x: Key128, y: Key128) -> UInt32 {
        UInt32(truncatingIfNeeded: AESCMAC.mac(key: x, message: u.octets + v.octets + y.octets).low)
    }

    /// The six-digit number Numeric Comparison displays: g2's value mod 10^6 (§2.3.5.6.2).
    public static func comparisonNumber(_ g2Value: UInt32) -> UInt32 { g2Value % 1_000_000 }

    /// A Pairing Request or Response command as exchanged: Code, then the six features.
    private static func command(_ code: UInt8, _ f: PairingFeatures) -> [UInt8] {
        var w = ByteWriter(capacity: 7)
        w.u8(code)
        f.encode(into: &w)
        return w.bytes
    }
}
