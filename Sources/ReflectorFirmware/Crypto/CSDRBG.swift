/// The Channel Sounding deterministic random bit generator (Core 6.0 Vol 6 Part E §3):
/// the toolbox functions f7, f8, f9 and h9 (§3.1.2–§3.1.5), random-bit generation CS_DRBG
/// (§3.1.6) with the nonce increment of §3.2.2, and backtracking resistance (§3.1.7).
///
/// Both controllers instantiate it from the same CS_IV, CS_IN and CS_PV after CS Security
/// Start, so both derive the same channels, antenna permutations and access addresses.
/// All values are most significant octet first, the way the spec's sample data writes them.
///
/// Every AES block goes through `Cipher` (`BlockCipher`): the table `AES128` by default, a
/// board's ECB peripheral on hardware.
public struct CSDRBG<Cipher: BlockCipher>: Sendable {
    /// K_DRBG, the current key.
    public private(set) var key: Block128
    /// V_DRBG, the current nonce.
    public private(set) var nonce: Block128
    /// `key`, prepared once: every generated block reuses it.
    private var cipher: Cipher
    /// How many AES blocks `generate` has produced since instantiation (for the benchmark's budget).
    public private(set) var blocksGenerated: Int = 0

    /// h9 (§3.1.5): instantiates the DRBG from the security material both sides exchanged.
    public init(iv: Block128, instantiationNonce: UInt64, personalization: Block128, cipher: Cipher.Type) {
        let sm = Self.f8(iv: iv, instantiationNonce: instantiationNonce, personalization: personalization)
        let (k, v) = Self.f9(sm: sm, key: .zero, nonce: .zero)
        self.init(key: k, nonce: v, cipher: cipher)
    }

    /// A DRBG in a given state, for example the h9 result of the spec's sample data.
    public init(key: Block128, nonce: Block128, cipher: Cipher.Type) {
        self.key = key
        self.nonce = nonce
        self.cipher = Cipher(key: key)
    }

    /// CS_DRBG (§3.1.6): one 128-bit output for a step, transaction ID and transaction counter.
    ///
    /// The nonce used is V with three fields added, each modulo its own width (§3.2.2):
    /// bits 7..0 + transaction counter, bits 15..8 + transaction ID, bits 31..16 + step counter.
    @inline(__always)
    public mutating func generate(step: UInt16, transactionID: UInt8, transactionCounter: UInt8) -> Block128 {
        blocksGenerated &+= 1
        return cipher.encrypt(Self.nonce(nonce, step: step, transactionID: transactionID, transactionCounter: transactionCounter))
    }

    /// Backtracking resistance (§3.1.7), run when the procedure counter advances: V gets the
    /// backtracking transaction ID (9) added to bits 15..8, then (K, V) = f9(0, K, V).
    public mutating func resistBacktracking() {
        let v = Self.nonce(nonce, step: 0, transactionID: TransactionID.backtrackingResistance.rawValue, transactionCounter: 0)
        let (k, v2) = Self.f9(sm: (.zero, .zero), key: key, nonce: v)
        self = Self(key: k, nonce: v2, blocksGenerated: blocksGenerated)
    }

    private init(key: Block128, nonce: Block128, blocksGenerated: Int) {
        self.init(key: key, nonce: nonce, cipher: Cipher.self)
        self.blocksGenerated = blocksGenerated
    }

    /// The nonce increment of §3.2.2: three fields added without carry between them.
    @inline(__always)
    static func nonce(_ v: Block128, step: UInt16, transactionID: UInt8, transactionCounter: UInt8) -> Block128 {
        let low32 = UInt32(truncatingIfNeeded: v.low)
        let counter = UInt32(UInt8(truncatingIfNeeded: low32) &+ transactionCounter)
        let tid = UInt32(UInt8(truncatingIfNeeded: low32 >> 8) &+ transactionID) << 8
        let stepField = UInt32(UInt16(truncatingIfNeeded: low32 >> 16) &+ step) << 16
        return Block128(high: v.high, low: (v.low & ~0xFFFF_FFFF) | UInt64(stepField | tid | counter))
    }

    // MARK: Toolbox

    /// f7 (§3.1.2): the CBC-MAC chain. X = 0; for each 128-bit block B of `blocks`, leftmost
    /// first, X = e(K, X ⊕ B).
    public static func f7(key: Block128, _ blocks: some Sequence<Block128>) -> Block128 {
        let aes = Cipher(key: key)
        var x = Block128.zero
        for b in blocks { x = aes.encrypt(x ^ b) }
        return x
    }

    /// f8 (§3.1.3): the derivation function, from CS_IV ‖ CS_IN ‖ CS_PV (320 bits) to the
    /// 256-bit seed material SM.
    public static func f8(iv: Block128, instantiationNonce: UInt64, personalization: Block128) -> (Block128, Block128) {
        let k = Block128(high: 0x0001_0203_0405_0607, low: 0x0809_0A0B_0C0D_0E0F)
        // S = L (0x28 = 40 octets of input) ‖ N (0x20 = 32 octets requested) ‖ input ‖ 0x80 ‖ 0…
        let s: [Block128] = [
            Block128(high: 0x0000_0028_0000_0020, low: iv.high),
            Block128(high: iv.low, low: instantiationNonce),
            personalization,
            Block128(high: 0x8000_0000_0000_0000, low: 0),
        ]
        let k2 = f7(key: k, [Block128.zero] + s)
        let x = f7(key: k, [Block128(high: 0x0000_0001_0000_0000, low: 0)] + s)
        let aes = Cipher(key: k2)
        let first = aes.encrypt(x)
        return (first, aes.encrypt(first))
    }

    /// f9 (§3.1.4): the update function. V1 and V2 are V with 1 and 2 added to its low octet
    /// (modulo 2⁸, as the spec writes V[127:8] ‖ (V[7:0] + 1) mod 2⁸); (e(K,V1) ‖ e(K,V2)) ⊕ SM
    /// gives the new key (left half) and nonce (right half).
    public static func f9(sm: (Block128, Block128), key: Block128, nonce: Block128) -> (key: Block128, nonce: Block128) {
        let aes = Cipher(key: key)
        func bump(_ n: UInt8) -> Block128 {
            Block128(high: nonce.high, low: (nonce.low & ~0xFF) | UInt64(UInt8(truncatingIfNeeded: nonce.low) &+ n))
        }
        return (aes.encrypt(bump(1)) ^ sm.0, aes.encrypt(bump(2)) ^ sm.1)
    }
}

/// The software DRBG: `CSDRBG` with the table-driven `AES128`, the default when no cipher is named.
extension CSDRBG where Cipher == AES128 {
    /// h9 (§3.1.5) with `AES128`.
    public init(iv: Block128, instantiationNonce: UInt64, personalization: Block128) {
        self.init(iv: iv, instantiationNonce: instantiationNonce, personalization: personalization, cipher: AES128.self)
    }

    /// A DRBG in a given state, with `AES128`.
    public init(key: Block128, nonce: Block128) { self.init(key: key, nonce: nonce, cipher: AES128.self) }
}
