import Testing
@testable import ReflectorFirmware
import TestSupport

/// AES and the CS DRBG against FIPS-197 and the Core spec's sample data
/// (Core 6.0 Vol 6 Part C §1.1 for e, Vol 6 Part C §7 for the DRBG, as quoted by NimBLE and TI).
struct CryptoTests {
    @Test func aesFIPS197AppendixB() {
        let out = AES128.encrypt(key: Hex.block("2b7e151628aed2a6abf7158809cf4f3c"), Hex.block("3243f6a8885a308d313198a2e0370734"))
        #expect(out == Hex.block("3925841d02dc09fbdc118597196a0b32"))
    }

    @Test func aesFIPS197AppendixC1() {
        let out = AES128.encrypt(key: Hex.block("000102030405060708090a0b0c0d0e0f"), Hex.block("00112233445566778899aabbccddeeff"))
        #expect(out == Hex.block("69c4e0d86a7b0430d8cdb78070b4c55a"))
    }

    @Test func aesSpecEncryptSample() {
        let out = AES128.encrypt(key: Hex.block("4C68384139F574D836BCF34E9DFB01BF"), Hex.block("0213243546576879ACBDCEDFE0F10213"))
        #expect(out == Hex.block("99AD1B5226A37E3E058E3B8E27C2C666"))
    }

    static let iv = Hex.block("E10BC28A0BFDDFE93E7F5186E0CA0B3B")
    static let inNonce: UInt64 = 0x9FF4_77C1_8673_840D
    static let pv = Hex.block("C980DEDF9882ED4464A674967868F143")

    @Test func f7f8Sample() {
        let k = Hex.block("000102030405060708090A0B0C0D0E0F")
        let s = Hex.bytes("00000000000000000000000000000000 0000002800000020 E10BC28A0BFDDFE93E7F5186E0CA0B3B 9FF477C18673840D C980DEDF9882ED4464A674967868F143 80 000000000000000000000000000000")
        let blocks = stride(from: 0, to: s.count, by: 16).map { Block128(octets: s[$0..<($0 + 16)]) }
        #expect(CSDRBG<AES128>.f7(key: k, blocks) == Hex.block("8B2B06DC522D3E0AF0A50CAF4810E035"))
        let sm = CSDRBG<AES128>.f8(iv: Self.iv, instantiationNonce: Self.inNonce, personalization: Self.pv)
        #expect(sm.0 == Hex.block("B602B1B28C6F0A3DDAE637B48425087D"))
        #expect(sm.1 == Hex.block("DC188C89A1B0CDFDA1E8FC66C9999750"))
    }

    @Test func h9Sample() {
        let d = CSDRBG(iv: Self.iv, instantiationNonce: Self.inNonce, personalization: Self.pv)
        #expect(d.key == Hex.block("EEE04D7C76113A5CEC992AE320C24D27"))
        #expect(d.nonce == Hex.block("DF905647C1066E6F52C03EDFB82B6928"))
    }

    @Test func randomBitSample() {
        var d = CSDRBG(iv: Self.iv, instantiationNonce: Self.inNonce, personalization: Self.pv)
        #expect(d.generate(step: 0, transactionID: 0, transactionCounter: 0) == Hex.block("79741FD18F577B45D09A665A7F1F2858"))
        #expect(d.generate(step: 0, transactionID: 0, transactionCounter: 1) == Hex.block("D1C1D05A40B4C481EFBB39B261D29C4E"))
        #expect(d.generate(step: 0, transactionID: 0, transactionCounter: 2) == Hex.block("71FDE868E8CACAD118E59B185CEEFC17"))
        #expect(d.generate(step: 10, transactionID: 4, transactionCounter: 0) == Hex.block("FFF874384E1CB9D3E69F1F2C2A22CF63"))
    }

    /// The nonce fields add without carrying into each other (§3.2.2).
    @Test func nonceFieldsDoNotCarry() {
        let v = Block128(high: 1, low: 0xFFFF_FFFF)
        let n = CSDRBG<AES128>.nonce(v, step: 1, transactionID: 1, transactionCounter: 1)
        #expect(n == Block128(high: 1, low: 0x0000_0000))
    }

    @Test func cr1ShufflesMatchSample() {
        var bits = CSRandomBits(drbg: CSDRBG(iv: Self.iv, instantiationNonce: Self.inNonce, personalization: Self.pv))
        var mode0 = InlineArray<72, UInt8>(repeating: 0)
        for i in 0..<19 { mode0[i] = UInt8(i + 2) }
        var main = mode0
        bits.setStep(0)
        bits.cr1(&mode0, count: 19, .mode0ChannelSelection)
        #expect((0..<19).map { mode0[$0] } == [11, 7, 14, 18, 9, 19, 10, 8, 5, 2, 4, 15, 16, 13, 12, 6, 17, 20, 3])
        bits.setStep(3)
        bits.cr1(&main, count: 19, .channelSelection)
        #expect((0..<19).map { main[$0] } == [6, 12, 5, 10, 3, 2, 18, 17, 16, 8, 11, 7, 19, 4, 13, 20, 9, 15, 14])
    }

    @Test func hr1IsUniformAndInRange() {
        var bits = CSRandomBits(drbg: CSDRBG(key: .zero, nonce: .zero))
        var counts = [Int](repeating: 0, count: 24)
        for s in 0..<2400 {
            bits.setStep(UInt16(s))
            counts[bits.hr1(24, .antennaPermutation)] += 1
        }
        #expect(counts.allSatisfy { $0 > 60 && $0 < 140 })
        #expect(bits.hr1(1, .antennaPermutation) == 0)
    }
}
