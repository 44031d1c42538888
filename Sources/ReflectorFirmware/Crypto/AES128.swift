/// AES-128 encryption (FIPS-197), the block cipher behind the Core specification's security
/// function e (Core 6.0 Vol 3 Part H §2.2.1) and so behind the CS DRBG (Vol 6 Part E §3.1).
///
/// Table-driven (one 256-entry T-table, rotated for the other three columns) with the key
/// schedule expanded once, so the DRBG pays ten table rounds per block and allocates nothing.
/// The default `BlockCipher`; a T-table is not constant-time, so a board with an AES ECB
/// peripheral should use that instead.
/// Only encryption is needed: the DRBG, f7, f8 and f9 never decrypt.
public struct AES128: BlockCipher {
    /// The 44 words of the expanded key schedule.
    @usableFromInline var roundKeys: InlineArray<44, UInt32>

    public init(key: Block128) {
        var rk = InlineArray<44, UInt32>(repeating: 0)
        rk[0] = key.word(0); rk[1] = key.word(1); rk[2] = key.word(2); rk[3] = key.word(3)
        var rcon: UInt32 = 0x01
        for i in 4..<44 {
            var t = rk[i - 1]
            if i % 4 == 0 {
                t = AESTables.subWord(t << 8 | t >> 24) ^ (rcon << 24)
                rcon = UInt32(AESTables.xtime(UInt8(rcon)))
            }
            rk[i] = rk[i - 4] ^ t
        }
        roundKeys = rk
    }

    /// Encrypts one 128-bit block.
    @inlinable
    public func encrypt(_ block: Block128) -> Block128 {
        let te = AESTables.te0
        let sbox = AESTables.sbox
        // Through a span: indexing the InlineArray with a run-time index copies all 176 octets
        // of the schedule on every read (measured: half the DRBG's time).
        let k = roundKeys.span
        var s0 = block.word(0) ^ k[0]
        var s1 = block.word(1) ^ k[1]
        var s2 = block.word(2) ^ k[2]
        var s3 = block.word(3) ^ k[3]
        @inline(__always) func t(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
            let x0 = te[Int(a >> 24)]
            let x1 = te[Int((b >> 16) & 0xFF)]
            let x2 = te[Int((c >> 8) & 0xFF)]
            let x3 = te[Int(d & 0xFF)]
            return x0 ^ (x1 >> 8 | x1 << 24) ^ (x2 >> 16 | x2 << 16) ^ (x3 >> 24 | x3 << 8)
        }
        var r = 4
        for _ in 1..<10 {
            let n0 = t(s0, s1, s2, s3) ^ k[r]
            let n1 = t(s1, s2, s3, s0) ^ k[r + 1]
            let n2 = t(s2, s3, s0, s1) ^ k[r + 2]
            let n3 = t(s3, s0, s1, s2) ^ k[r + 3]
            s0 = n0; s1 = n1; s2 = n2; s3 = n3
            r += 4
        }
        @inline(__always) func last(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
            UInt32(sbox[Int(a >> 24)]) << 24 | UInt32(sbox[Int((b >> 16) & 0xFF)]) << 16
                | UInt32(sbox[Int((c >> 8) & 0xFF)]) << 8 | UInt32(sbox[Int(d & 0xFF)])
        }
        return Block128(
            words: last(s0, s1, s2, s3) ^ k[40], last(s1, s2, s3, s0) ^ k[41],
            last(s2, s3, s0, s1) ^ k[42], last(s3, s0, s1, s2) ^ k[43])
    }

    /// The security function e(key, plaintext) in one call (expands the key each time).
    public static func encrypt(key: Block128, _ block: Block128) -> Block128 {
        AES128(key: key).encrypt(block)
    }
}

/// The AES S-box and the first encryption T-table, computed from GF(2^8) arithmetic so that
/// no 1 KiB literal has to be trusted by eye.
@usableFromInline
enum AESTables {
    @usableFromInline static let sbox: [UInt8] = makeSBox()
    /// Te0[x] = (2·S[x], S[x], S[x], 3·S[x]) as a big-endian word; the other columns are rotations.
    @usableFromInline static let te0: [UInt32] = sbox.map { s in
        let s2 = xtime(s)
        return UInt32(s2) << 24 | UInt32(s) << 16 | UInt32(s) << 8 | UInt32(s2 ^ s)
    }

    @inline(__always)
    static func xtime(_ x: UInt8) -> UInt8 { (x << 1) ^ ((x & 0x80) != 0 ? 0x1B : 0) }

    static func subWord(_ w: UInt32) -> UInt32 {
        UInt32(sbox[Int(w >> 24)]) << 24 | UInt32(sbox[Int((w >> 16) & 0xFF)]) << 16
            | UInt32(sbox[Int((w >> 8) & 0xFF)]) << 8 | UInt32(sbox[Int(w & 0xFF)])
    }

    /// S[x] = affine(x⁻¹) over GF(2^8) with the AES polynomial x⁸+x⁴+x³+x+1 (FIPS-197 §5.1.1).
    static func makeSBox() -> [UInt8] {
        var box = [UInt8](repeating: 0, count: 256)
        // Walk the multiplicative group with generator 3 and its inverse 0xF6 together.
        var p: UInt8 = 1
        var q: UInt8 = 1
        repeat {
            p = p ^ xtime(p)  // p · 3
            q ^= q << 1; q ^= q << 2; q ^= q << 4  // q / 3
            if q & 0x80 != 0 { q ^= 0x09 }
            let rot = { (x: UInt8, n: UInt8) -> UInt8 in (x << n) | (x >> (8 - n)) }
            box[Int(p)] = q ^ rot(q, 1) ^ rot(q, 2) ^ rot(q, 3) ^ rot(q, 4) ^ 0x63
        } while p != 1
        box[0] = 0x63
        return box
    }
}
