import BLEHost
import EmulatorMath
import TestSupport
import Testing

/// The LE Secure Connections toolbox (`BLEHost/SMP/Crypto`) against the sample data of Core 6.0
/// Vol 3 Part H Appendix D and RFC 4493. Every value is MSB-first, as the specification and the
/// RFC print them (the toolbox's API order).
@Suite struct SecurityToolboxTests {
    static let key = Hex.bytes("2b7e151628aed2a6abf7158809cf4f3c")
    static let rfcMessage = Hex.bytes("6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51 30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710")

    // Appendix D.1: the P-256 sample keys (a is the debug key of §2.3.5.6.1).
    static let privateA = Hex.bytes("3f49f6d4a3c55f3874c9b3e3d2103f504aff607beb40b7995899b8a6cd3c1abd")
    static let publicA = Hex.bytes("20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6"
                                   + "dc809c49652aeb6d63329abf5a52155c766345c28fed3024741c8ed01589d28b")
    static let privateB = Hex.bytes("55188b3d32f6bb9a900afcfbeed4e72a59cb9ac2f19d7cfb6b4fdd49f47fc5fd")
    static let publicB = Hex.bytes("1ea1f0f01faf1d9609592284f19e4c0047b58afd8615a69f559077b22faaa190"
                                   + "4c55f33e429dad377356703a9ab85160472d1130e28e36765f89aff915b1214a")
    static let dhKey = Hex.bytes("ec0234a357c8ad05341010a60a397d9b99796b13b4f866f1868d34f373bfa698")

    // The f4/f5/f6/g2 sample data (Appendix D.2–D.5).
    static let u = Hex.bytes("20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6")
    static let v = Hex.bytes("55188b3d32f6bb9a900afcfbeed4e72a59cb9ac2f19d7cfb6b4fdd49f47fc5fd")
    static let n1 = Hex.bytes("d5cb8454d177733effffb2ec712baeab")
    static let n2 = Hex.bytes("a6e8e7cc25a75f6e216583f7ff3dc4cf")
    static let a1 = Hex.bytes("0056123737bfce")
    static let a2 = Hex.bytes("00a713702dcfc1")

    @Test func aesCMACMatchesRFC4493() throws {
        #expect(Hex.string(try AESCMAC.mac(key: Self.key, message: [])) == "bb1d6929e95937287fa37d129b756746")
        #expect(Hex.string(try AESCMAC.mac(key: Self.key, message: Array(Self.rfcMessage[0..<16]))) == "070a16b46b4d4144f79bdd9dd04a287c")
        #expect(Hex.string(try AESCMAC.mac(key: Self.key, message: Array(Self.rfcMessage[0..<40]))) == "dfa66747de9ae63030ca32611497c827")
        #expect(Hex.string(try AESCMAC.mac(key: Self.key, message: Self.rfcMessage)) == "51f0bebf7e3b9d92fc49741779363cfe")
    }

    @Test func eIsAES128() throws {
        // FIPS-197 Appendix C.1 (AES-128).
        let out = try SMPCrypto.e(key: Hex.bytes("000102030405060708090a0b0c0d0e0f"), plaintext: Hex.bytes("00112233445566778899aabbccddeeff"))
        #expect(Hex.string(out) == "69c4e0d86a7b0430d8cdb78070b4c55a")
    }

    @Test func debugKeysGiveTheSpecsPublicKeysAndDHKey() throws {
        let a = try P256KeyPair(privateKey: Self.privateA)
        let b = try P256KeyPair(privateKey: Self.privateB)
        #expect(a.publicKey == Self.publicA)
        #expect(b.publicKey == Self.publicB)
        #expect(try a.dhKey(peerPublicKey: b.publicKey) == Self.dhKey)
        #expect(try P256.dhKey(privateKey: Self.privateB, peerPublicKey: Self.publicA) == Self.dhKey)
    }

    /// BlueZ's unit/test-ecc.c samples (bluez/bluez), which keep every value little-endian (the
    /// air order): keys, each public-key coordinate and the DHKey reversed. Sample 1 is
    /// Appendix D.1 again; sample 2 is a second pair; sample 3 is key a with itself.
    @Test func bluezSamplesAgree() throws {
        func scalar(_ hex: String) -> [UInt8] { Array(Hex.bytes(hex).reversed()) }
        let samples: [(privateA: String, privateB: String, publicA: String, publicB: String, dhKey: String)] = [
            ("bd1a3ccda6b8995899b740eb7b60ff4a503f10d2e3b3c974385fc5a3d4f6493f",
             "fdc57ff449dd4f6bfb7c9df1c29acb592ae7d4eefbfc0a909abbf6323d8b1855",
             "e69d350e480103ccdbfdf4ac1191f4efb9a5f9e9a7832c5e2cbe97f2d203b020 8bd28915d08e1c742430ed8fc24563765c15525abf9a32636deb2a65499c80dc",
             "90a1aa2fb27790559fa61586fd8ab547004c9ef184225909961daf1ff0f0a11e 4a21b115f9af895f76368ee230112d476051b89a3a70567337ad9d423ef3554c",
             "98a6bf73f3348d86f166f8b4136b79999b7d390aa610103405adc857a33402ec"),
            ("637645d0f773acb7ffdd0372b97285b441b65d0c5d5484601aa39a3c6916a506",
             "ba30555019a2caa3a52908c6b503887e032b5073d42e509764cd720d67a09a52",
             "dd785c74039b7e98cb94874aadfaf8d5433e5cafeab54cf49e8079577ba4312c 4f5d71437743f8ead43ebd17911021d01f87438e40e252cdbedf983818129591",
             "cc0065e1f56c0dcfec96472066c9db848175a84dc0dfc79d1b3f3df23fe465f4 79b2ecd8ca55a1a8434d6bca10b0c201c2334e1624c4efee99d8bbbc48d00102",
             "69eb2132f2c605416019cd5e94e1e65f3307e3384b68e5623f886d2f3a8485ab"),
            ("bd1a3ccda6b8995899b740eb7b60ff4a503f10d2e3b3c974385fc5a3d4f6493f",
             "bd1a3ccda6b8995899b740eb7b60ff4a503f10d2e3b3c974385fc5a3d4f6493f",
             "e69d350e480103ccdbfdf4ac1191f4efb9a5f9e9a7832c5e2cbe97f2d203b020 8bd28915d08e1c742430ed8fc24563765c15525abf9a32636deb2a65499c80dc",
             "e69d350e480103ccdbfdf4ac1191f4efb9a5f9e9a7832c5e2cbe97f2d203b020 8bd28915d08e1c742430ed8fc24563765c15525abf9a32636deb2a65499c80dc",
             "2dab0048cbb37bda557b8b72a85787c387279932fc795fae7c1cf949e6d7aa70"),
        ]
        for (index, sample) in samples.enumerated() {
            let a = try P256KeyPair(privateKey: scalar(sample.privateA))
            let b = try P256KeyPair(privateKey: scalar(sample.privateB))
            #expect(a.publicKey == (try P256.publicKey(fromAir: Hex.bytes(sample.publicA))), "sample \(index + 1)")
            #expect(b.publicKey == (try P256.publicKey(fromAir: Hex.bytes(sample.publicB))), "sample \(index + 1)")
            let ab = try a.dhKey(peerPublicKey: b.publicKey), ba = try b.dhKey(peerPublicKey: a.publicKey)
            #expect(ab == scalar(sample.dhKey), "sample \(index + 1)")
            #expect(ba == ab, "sample \(index + 1)")
        }
        #expect(Array(Self.dhKey.reversed()) == Hex.bytes(samples[0].dhKey))
    }

    @Test func publicKeyAirOrderReversesEachCoordinate() throws {
        let air = try P256.airOrder(Self.publicA)
        #expect(Array(air[0..<32]) == Array(Self.publicA[0..<32].reversed()))
        #expect(Array(air[32..<64]) == Array(Self.publicA[32..<64].reversed()))
        #expect(try P256.publicKey(fromAir: air) == Self.publicA)
    }

    @Test func c1MatchesTheSpec() throws {
        let out = try SMPCrypto.c1(k: [UInt8](repeating: 0, count: 16), r: Hex.bytes("5783D52156AD6F0E6388274EC6702EE0"),
                                   preq: Hex.bytes("07071000000101"), pres: Hex.bytes("05000800000302"),
                                   iat: 1, rat: 0, ia: Hex.bytes("A1A2A3A4A5A6"), ra: Hex.bytes("B1B2B3B4B5B6"))
        #expect(Hex.string(out) == "1e1e3fef878988ead2a74dc5bef13b86")
    }

    @Test func s1MatchesTheSpec() throws {
        let out = try SMPCrypto.s1(k: [UInt8](repeating: 0, count: 16), r1: Hex.bytes("000F0E0D0C0B0A091122334455667788"),
                                   r2: Hex.bytes("010203040506070899AABBCCDDEEFF00"))
        #expect(Hex.string(out) == "9a1fe1f0e8b0f49b5b4216ae796da062")
    }

    @Test func ahMatchesTheSpec() throws {
        let out = try SMPCrypto.ah(k: Hex.bytes("ec0234a357c8ad05341010a60a397d9b"), r: Hex.bytes("708194"))
        #expect(Hex.string(out) == "0dfbaa")
    }

    @Test func f4MatchesTheSpec() throws {
        #expect(Hex.string(try SMPCrypto.f4(u: Self.u, v: Self.v, x: Self.n1, z: 0)) == "f2c916f107a9bd1cf1eda1bea974872d")
    }

    @Test func f5MatchesTheSpec() throws {
        let keys = try SMPCrypto.f5(w: Self.dhKey, n1: Self.n1, n2: Self.n2, a1: Self.a1, a2: Self.a2)
        #expect(Hex.string(keys.macKey) == "2965f176a1084a02fd3f6a20ce636e20")
        #expect(Hex.string(keys.ltk) == "6986791169d7cd23980522b594750a38")
    }

    @Test func f6MatchesTheSpec() throws {
        let out = try SMPCrypto.f6(w: Hex.bytes("2965f176a1084a02fd3f6a20ce636e20"), n1: Self.n1, n2: Self.n2,
                                   r: Hex.bytes("12a3343bb453bb5408da42d20c2d0fc8"), ioCap: Hex.bytes("010102"),
                                   a1: Self.a1, a2: Self.a2)
        #expect(Hex.string(out) == "e3c473989cd0e8c5d26c0b09da958f61")
    }

    @Test func g2MatchesTheSpec() throws {
        let value = try SMPCrypto.g2(u: Self.u, v: Self.v, x: Self.n1, y: Self.n2)
        #expect(value == 0x2f9e_d5ba)
        #expect(SMPCrypto.comparisonNumber(value) == 0x2f9e_d5ba % 1_000_000)
    }

    @Test func invalidPublicKeysAreRefused() throws {
        let p = Hex.bytes("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
        // (5, y) is on the curve; (5 + p, y) names the same point modulo p but X is not below p.
        let y5 = Hex.bytes("459243b9aa581806fe913bce99817ade11ca503c64d9a3c533415c083248fbcc")
        #expect(P256.isValidPublicKey(Hex.bytes("0000000000000000000000000000000000000000000000000000000000000005") + y5))
        let offCurve = Array(Self.publicA[0..<63]) + [Self.publicA[63] ^ 1]
        let refused: [(String, [UInt8])] = [
            ("off the curve", offCurve),
            ("all zeros (the point at infinity's usual encoding)", [UInt8](repeating: 0, count: 64)),
            ("X = 5 + p", Hex.bytes("ffffffff00000001000000000000000000000001000000000000000000000004") + y5),
            ("X = p", p + y5),
            ("Y = p", Array(Self.publicA[0..<32]) + p),
            ("all ones", [UInt8](repeating: 0xFF, count: 64)),
            ("too short", Array(Self.publicA[0..<63])),
        ]
        for (label, key) in refused {
            #expect(!P256.isValidPublicKey(key), "\(label)")
            #expect(throws: (key.count == 64 ? SMPCryptoError.invalidPublicKey : SMPCryptoError.wrongLength("P-256 public key", expected: 64, actual: key.count)),
                    "\(label)") {
                try P256.dhKey(privateKey: Self.privateA, peerPublicKey: key)
            }
        }
        #expect(P256.isValidPublicKey(Self.publicA))
        #expect(P256.isValidPublicKey(Self.publicB))
    }

    @Test func invalidPrivateKeysAreRefused() {
        let n = Hex.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        for key in [[UInt8](repeating: 0, count: 32), n, [UInt8](repeating: 0xFF, count: 32)] {
            #expect(throws: SMPCryptoError.invalidPrivateKey) { try P256KeyPair(privateKey: key) }
            #expect(throws: SMPCryptoError.invalidPrivateKey) { try P256.dhKey(privateKey: key, peerPublicKey: Self.publicB) }
        }
        #expect(throws: SMPCryptoError.wrongLength("P-256 private key", expected: 32, actual: 31)) {
            try P256KeyPair(privateKey: [UInt8](repeating: 1, count: 31))
        }
    }

    @Test func wrongLengthsThrow() {
        #expect(throws: SMPCryptoError.wrongLength("e key", expected: 16, actual: 15)) {
            try SMPCrypto.e(key: [UInt8](repeating: 0, count: 15), plaintext: [UInt8](repeating: 0, count: 16))
        }
        #expect(throws: SMPCryptoError.wrongLength("f5 A1", expected: 7, actual: 6)) {
            try SMPCrypto.f5(w: Self.dhKey, n1: Self.n1, n2: Self.n2, a1: [0, 1, 2, 3, 4, 5], a2: Self.a2)
        }
        #expect(throws: SMPCryptoError.wrongLength("g2 U", expected: 32, actual: 0)) {
            try SMPCrypto.g2(u: [], v: Self.v, x: Self.n1, y: Self.n2)
        }
    }

    @Test func generatedKeysDifferAndAreValid() throws {
        let first = try P256KeyPair.generate()
        let second = try P256KeyPair.generate()
        #expect(first.privateKey != second.privateKey)
        #expect(first.publicKey != second.publicKey)
        #expect(P256.isValidPublicKey(first.publicKey) && P256.isValidPublicKey(second.publicKey))
        #expect(try P256KeyPair(privateKey: first.privateKey) == first)
        #expect(try first.dhKey(peerPublicKey: second.publicKey) == second.dhKey(peerPublicKey: first.publicKey))
        let random = try SecureRandom.bytes(16), again = try SecureRandom.bytes(16)
        #expect(random.count == 16 && random != again)
    }

    @Test func keyPairsAgreeOnTheDHKey() throws {
        var rng = SplitMix64(seed: 0x5EC0_2E_C0_11EC_7105)
        for round in 0..<20 {
            // A first octet below 0xFF keeps the scalar below n; a set last bit keeps it nonzero.
            var da = rng.bytes(32), db = rng.bytes(32)
            da[0] = da[0] % 0xFF; db[0] = db[0] % 0xFF
            da[31] |= 1; db[31] |= 1
            let a = try P256KeyPair(privateKey: da)
            let b = round.isMultiple(of: 2) ? try P256KeyPair(privateKey: db) : try P256KeyPair.generate()
            let ab = try a.dhKey(peerPublicKey: b.publicKey)
            #expect(ab.count == 32)
            let ba = try b.dhKey(peerPublicKey: a.publicKey)
            #expect(ab == ba, "round \(round)")
        }
    }
}
