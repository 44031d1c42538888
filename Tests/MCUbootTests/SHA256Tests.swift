import Testing
@testable import MCUboot
import TestSupport

struct SHA256Tests {
    /// FIPS 180-2 Appendix B.1: one block, "abc".
    @Test func fipsOneBlock() {
        #expect(Hex.string(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// FIPS 180-2 Appendix B.2: the 448-bit two-block message.
    @Test func fipsTwoBlocks() {
        let m = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(m.count * 8 == 448)
        #expect(Hex.string(SHA256.hash(m)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func emptyMessage() {
        #expect(Hex.string(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// Feeding in pieces gives the same digest as all at once, across block and padding edges.
    @Test func incrementalMatchesOneShot() {
        for n in [55, 56, 63, 64, 65, 119, 120, 200] {
            let m = TestImages.payload(n, seed: UInt64(n))
            var s = SHA256()
            for chunk in stride(from: 0, to: n, by: 7) { s.update(m[chunk..<min(n, chunk + 7)]) }
            #expect(s.finalize() == SHA256.hash(m), "length \(n)")
        }
    }
}
