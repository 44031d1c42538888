/// The CS access addresses of one mode-0/1/3 step (Core 6.0 Vol 6 Part H §4.x): one for the
/// initiator's CS_SYNC and one for the reflector's, both derived from one 128-bit DRBG draw.
public struct AccessAddressPair: Sendable, Equatable {
    public var initiator: UInt32
    public var reflector: UInt32

    public init(initiator: UInt32, reflector: UInt32) {
        self.initiator = initiator
        self.reflector = reflector
    }

    public static let zero = AccessAddressPair(initiator: 0, reflector: 0)

    /// Draws a step's pair with transaction ID 5: the block's four big-endian words are two
    /// candidates for each side, and the candidate with the lower autocorrelation score wins
    /// (the second on a tie).
    @inline(__always)
    public static func draw<C: BlockCipher>(_ bits: inout CSRandomBits<C>) -> AccessAddressPair {
        let b = bits.block(.accessAddress)
        return AccessAddressPair(initiator: pick(b.word(0), b.word(1)), reflector: pick(b.word(2), b.word(3)))
    }

    @inline(__always)
    static func pick(_ a: UInt32, _ b: UInt32) -> UInt32 {
        autocorrelationScore(a) < autocorrelationScore(b) ? a : b
    }

    /// Σ_{k=1..3} |2·c_k − (32 − k)|, where c_k counts the bit pairs k apart that differ: how far
    /// the word is from a balanced, non-repeating pattern at small shifts.
    @inline(__always)
    static func autocorrelationScore(_ x: UInt32) -> Int {
        var score = 0
        for k in 1...3 {
            let mask: UInt32 = (1 << UInt32(32 - k)) &- 1
            let c = ((x ^ (x >> UInt32(k))) & mask).nonzeroBitCount
            score += abs(2 * c - (32 - k))
        }
        return score
    }
}
