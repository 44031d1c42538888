import BLEHost
import EmulatorMath
import TestSupport
import Testing

/// The LE Secure Connections toolbox (`BLEHost/SMP/Crypto`) against the sample data of Core 6.0
/// Vol 3 Part H Appendix D and RFC 4493. Every value is MSB-first, as the specification and the
/// RFC print them (the toolbox's order); `SMPByteOrderTests` checks the order the PDUs carry.

@Suite struct SecurityToolboxTests {
    static func k128(_ hex: String) -> Key128 { Key128(octets: Hex.bytes(hex)) }
    static func k256(_ hex: String) -> Key256 { Key256(octets: Hex.bytes(hex)) }

    static let key = k128("2b7e151628aed2a6abf7158809cf4f3c")
    static let rfcMessage = Hex.bytes("6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51 30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710")

    // Appendix D.1: the P-256 sample keys (a is the debug key of §2.3.5.6.1).
    static let privateA = k256("3f49f6d4a3c55f3874c9b3e3d2103f504aff607beb40b7995899b8a6cd3c1abd")
    static let publicA = P256PublicKey(octets: Hex.bytes("20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6"
                                                         + "dc809c49652aeb6d63329abf5a52155c766345c28fed3024741c8ed01589d28b"))
    static let privateB = k256("55188b3d32f6bb9a900afcfbeed4e72a59cb9ac2f19d7cfb6b4fdd49f47fc5fd")
    static let publicB = P256PublicKey(octets: Hex.bytes("1ea1f0f01faf1d9609592284f19e4c0047b58afd8615a69f559077b22faaa190"
                                                         + "4c55f33e429dad377356703a9ab85160472d1130e28e36765f89aff915b1214a"))
    static let dhKey = k256("ec0234a357c8ad05341010a60a397d9b99796b13b4f866f1868d34f373bfa698")

    // The f4/f5/f6/g2 sample data (Appendix D.2–D.5).
    static let u = k256("20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6")
    static let v = k256("55188b3d32f6bb9a900afcfbeed4e72a59cb9ac2f19d7cfb6b4fdd49f47fc5fd")
    static let n1 = k128("d5cb8454d177733effffb2ec712baeab")
    static let n2 = k128("a6e8e7cc25a75f6e216583f7ff3dc4cf")
    /// A1 0056123737bfce and A2 00a713702dcfc1: type octet 00 (public), then the address.
    static let a1 = PairingAddress(0x5612_3737_BFCE, random: false)
    static let a2 = PairingAddress(0xA713_702D_CFC1, random: false)

    @Test func aesCMACMatchesRFC4493() {
        #expect(Hex.string(AESCMAC.mac(key: Self.key, message: []).octets) == "bb1d6929e95937287fa37d129b756746")
        #expect(Hex.string(AESCMAC.mac(key: Self.key, message: Array(Self.rfcMessage[0..<16])).octets) == "070a16b46b4d4144f79bdd9dd04a287c")
        #expect(Hex.string(AESCMAC.mac(key: Self.key, message: Array(Self.rfcMessage[0..<40])).octets) == "dfa66747de9ae63030ca32611497c827")
        #expect(Hex.string(AESCMAC.mac(key: Self.key, message: Self.rfcMessage).octets) == "51f0bebf7e3b9d92fc49741779363cfe")
    }

    @Test func eIsAES128() {
        // FIPS-197 Appendix C.1 (AES-128).
        let out = SMPCrypto.e(key: Self.k128("000102030405060708090a0b0c0d0e0f"), plaintext: Self.k128("00112233445566778899aabbccddeeff"))
        #expect(out == Self.k128("69c4e0d86a7b0430d8cdb78070b4c55a"))
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
            let a = try P256KeyPair(privateKey: Key256(wire: Hex.bytes(sample.privateA)))
            let b = try P256KeyPair(privateKey: Key256(wire: Hex.bytes(sample.privateB)))
            #expect(a.publicKey == P256PublicKey(wire: Hex.bytes(sample.publicA)), "sample \(index + 1)")
            #expect(b.publicKey == P256PublicKey(wire: Hex.bytes(sample.publicB)), "sample \(index + 1)")
            #expect(Hex.string(a.publicKey.wire) == sample.publicA.filter { $0 != " " }, "sample \(index + 1)")
            let ab = try a.dhKey(peerPublicKey: b.publicKey), ba = try b.dhKey(peerPublicKey: a.publicKey)
            #expect(ab == Key256(wire: Hex.bytes(sample.dhKey)), "sample \(index + 1)")
            #expect(ba == ab, "sample \(index + 1)")
        }
        #expect(Hex.string(Self.dhKey.wire) == samples[0].dhKey)
    }

    @Test func c1MatchesTheSpec() throws {
        // preq 07071000000101 and pres 05000800000302 as the spec prints them (MSB-first): the
        // commands 01 01 00 00 10 07 07 and 02 03 00 00 08 00 05 as exchanged.
        guard case .pairingRequest(let preq) = try SMPPDU.decode(Hex.bytes("01010000100707")),
              case .pairingResponse(let pres) = try SMPPDU.decode(Hex.bytes("02030000080005")) else { Issue.record("not a request and a response"); return }
        let out = SMPCrypto.c1(k: .zero, r: Self.k128("5783D52156AD6F0E6388274EC6702EE0"), preq: preq, pres: pres,
                               ia: PairingAddress(0xA1A2_A3A4_A5A6, random: true), ra: PairingAddress(0xB1B2_B3B4_B5B6, random: false))
        #expect(out == Self.k128("1e1e3fef878988ead2a74dc5bef13b86"))
    }

    @Test func s1MatchesTheSpec() {
        let out = SMPCrypto.s1(k: .zero, r1: Self.k128("000F0E0D0C0B0A091122334455667788"), r2: Self.k128("010203040506070899AABBCCDDEEFF00"))
        #expect(out == Self.k128("9a1fe1f0e8b0f49b5b4216ae796da062"))
    }

    @Test func ahMatchesTheSpec() {
        #expect(SMPCrypto.ah(k: Self.k128("ec0234a357c8ad05341010a60a397d9b"), r: 0x70_8194) == 0x0D_FBAA)
    }

    @Test func f4MatchesTheSpec() {
        #expect(SMPCrypto.f4(u: Self.u, v: Self.v, x: Self.n1, z: 0) == Self.k128("f2c916f107a9bd1cf1eda1bea974872d"))
    }

    @Test func f5MatchesTheSpec() {
        let keys = SMPCrypto.f5(w: Self.dhKey, n1: Self.n1, n2: Self.n2, a1: Self.a1, a2: Self.a2)
        #expect(keys.macKey == Self.k128("2965f176a1084a02fd3f6a20ce636e20"))
        #expect(keys.ltk == Self.k128("6986791169d7cd23980522b594750a38"))
    }

    /// IOcap 010102: AuthReq 01 (bonding), OOB data present, KeyboardOnly.
    static let f6IOCap = PairingFeatures(ioCapability: .keyboardOnly, oobDataPresent: true, authRequirements: [.bonding], initiatorKeys: [], responderKeys: [])

    @Test func f6MatchesTheSpec() {
        let out = SMPCrypto.f6(w: Self.k128("2965f176a1084a02fd3f6a20ce636e20"), n1: Self.n1, n2: Self.n2,
                               r: Self.k128("12a3343bb453bb5408da42d20c2d0fc8"), ioCap: Self.f6IOCap, a1: Self.a1, a2: Self.a2)
        #expect(out == Self.k128("e3c473989cd0e8c5d26c0b09da958f61"))
    }

    @Test func g2MatchesTheSpec() {
        let value = SMPCrypto.g2(u: Self.u, v: Self.v, x: Self.n1, y: Self.n2)
        #expect(value == 0x2f9e_d5ba)
        #expect(SMPCrypto.comparisonNumber(value) == 0x2f9e_d5ba % 1_000_000)
    }

    @Test func invalidPublicKeysAreRefused() throws {
        let p = Hex.bytes("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
        // (5, y) is on the curve; (5 + p, y) names the same point modulo p but X is not below p.
        let y5 = Hex.bytes("459243b9aa581806fe913bce99817ade11ca503c64d9a3c533415c083248fbcc")
        #expect(P256.isValidPublicKey(P256PublicKey(octets: Hex.bytes("0000000000000000000000000000000000000000000000000000000000000005") + y5)))
        var offCurve = Self.publicA
        offCurve.y.low.low ^= 1
        let refused: [(String, P256PublicKey)] = [
            ("off the curve", offCurve),
            ("all zeros (the point at infinity's usual encoding)", P256PublicKey(x: .zero, y: .zero)),
            ("X = 5 + p", P256PublicKey(octets: Hex.bytes("ffffffff00000001000000000000000000000001000000000000000000000004") + y5)),
            ("X = p", P256PublicKey(octets: p + y5)),
            ("Y = p", P256PublicKey(x: Self.publicA.x, y: Key256(octets: p))),
            ("all ones", P256PublicKey(octets: [UInt8](repeating: 0xFF, count: 64))),
        ]
        for (label, key) in refused {
            #expect(!P256.isValidPublicKey(key), "\(label)")
            #expect(throws: SMPCryptoError.invalidPublicKey, "\(label)") {
                try P256.dhKey(privateKey: Self.privateA, peerPublicKey: key)
            }
        }
        #expect(P256.isValidPublicKey(Self.publicA))
        #expect(P256.isValidPublicKey(Self.publicB))
    }

    @Test func invalidPrivateKeysAreRefused() {
        let n = Self.k256("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        for key in [Key256.zero, n, Key256(octets: [UInt8](repeating: 0xFF, count: 32))] {
            #expect(throws: SMPCryptoError.invalidPrivateKey) { try P256KeyPair(privateKey: key) }
            #expect(throws: SMPCryptoError.invalidPrivateKey) { try P256.dhKey(privateKey: key, peerPublicKey: Self.publicB) }
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
        let random = RandomOctets.system.key128(), again = RandomOctets.system.key128()
        #expect(random != again)
    }

    @Test func keyPairsAgreeOnTheDHKey() throws {
        var rng = SplitMix64(seed: 0x5EC0_2E_C0_11EC_7105)
        for round in 0..<20 {
            // A first octet below 0xFF keeps the scalar below n; a set last bit keeps it nonzero.
            var da = rng.bytes(32), db = rng.bytes(32)
            da[0] = da[0] % 0xFF; db[0] = db[0] % 0xFF
            da[31] |= 1; db[31] |= 1
            let a = try P256KeyPair(privateKey: Key256(octets: da))
            let b = round.isMultiple(of: 2) ? try P256KeyPair(privateKey: Key256(octets: db)) : try P256KeyPair.generate()
            let ab = try a.dhKey(peerPublicKey: b.publicKey)
            let ba = try b.dhKey(peerPublicKey: a.publicKey)
            #expect(ab == ba, "round \(round)")
        }
    }

    /// Draws have the length asked, from a source that only fills; the passkey is six digits,
    /// little-endian from its four octets (0x0001E240 = 123456) and rejection-sampled.
    @Test func randomOctetsDrawWholeValues() {
        let fixed = RandomOctets { $0 = $0.count == 4 ? [0x40, 0xE2, 0x01, 0x00] : Array(0..<UInt8($0.count)) }
        #expect(fixed.passkey() == 123_456)
        #expect(fixed.key128() == Key128(octets: 0..<16))
        #expect(fixed.uint16() == 0x0100 && fixed.uint64() == 0x0706_0504_0302_0100)
        #expect(RandomOctets.repeating(0xFF).octets(3) == [0xFF, 0xFF, 0xFF])
        // 0xFFFFFFFF is above the last whole million: drawn again.
        let draws = DrawCounter()
        let rejecting = RandomOctets { $0 = draws.next() == 0 ? [0xFF, 0xFF, 0xFF, 0xFF] : [0x40, 0xE2, 0x01, 0x00] }
        #expect(rejecting.passkey() == 123_456 && draws.count == 2)
    }

    final class DrawCounter: @unchecked Sendable {
        private(set) var count = 0
        func next() -> Int { defer { count += 1 }; return count }
    }
}
