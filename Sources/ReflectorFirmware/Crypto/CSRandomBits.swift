/// The consumer side of the CS DRBG: per-transaction-ID bit caches, the step counter, and the
/// spec's random functions hr1 and cr1 (Core 6.0 Vol 6 Part E §3.1.6 and Vol 6 Part H §4.1.x).
///
/// Each transaction ID has its own 128-bit cache. Octets leave a block most significant first
/// and bits leave an octet most significant first. When a cache runs dry inside one step the
/// next block uses transaction counter + 1; a new step starts the counter again at 0.
/// Fixed-size storage only: drawing bits never allocates.
public struct CSRandomBits<Cipher: BlockCipher>: Sendable {
    public var drbg: CSDRBG<Cipher>
    public let policy: LeftoverBitPolicy
    /// The CS step counter of the step now drawing bits (its index within the procedure).
    public private(set) var step: UInt16 = 0

    private var cache = InlineArray<10, Block128>(repeating: .zero)
    /// Unused bits left in each cache, 0...128.
    private var bitsLeft = InlineArray<10, UInt8>(repeating: 0)
    /// The step each cache's current block was generated for.
    private var cacheStep = InlineArray<10, UInt16>(repeating: 0)
    /// The transaction counter the next block of each ID will use.
    private var counter = InlineArray<10, UInt8>(repeating: 0)

    public init(drbg: CSDRBG<Cipher>, policy: LeftoverBitPolicy = .regeneratePerStep) {
        self.drbg = drbg
        self.policy = policy
    }

    /// Sets the step counter for the bits drawn next.
    @inline(__always)
    public mutating func setStep(_ s: UInt16) { step = s }

    /// Called at the start of every subevent: drops leftovers under `.keepWithinSubevent`.
    public mutating func startSubevent() {
        if policy == .keepWithinSubevent { clear() }
    }

    /// Called at the start of every procedure: all caches are cleared and the step counter
    /// returns to 0. Backtracking resistance is the caller's (the procedure counter's) business.
    public mutating func startProcedure() {
        clear()
        step = 0
    }

    private mutating func clear() {
        for i in 0..<10 { bitsLeft[i] = 0; counter[i] = 0 }
    }

    /// The next `count` bits (0...32) of a transaction ID's stream, first bit most significant.
    @inline(__always)
    public mutating func bits(_ count: Int, _ id: TransactionID) -> UInt32 {
        var value: UInt32 = 0
        var needed = count
        let t = Int(id.rawValue)
        while needed > 0 {
            if cacheStep[t] != step {
                // A new step: the transaction counter restarts; leftovers survive only by policy.
                cacheStep[t] = step
                counter[t] = 0
                if policy == .regeneratePerStep { bitsLeft[t] = 0 }
            }
            if bitsLeft[t] == 0 {
                cache[t] = drbg.generate(step: step, transactionID: id.rawValue, transactionCounter: counter[t])
                counter[t] &+= 1
                bitsLeft[t] = 128
            }
            let take = min(needed, Int(bitsLeft[t]))
            let used = 128 - Int(bitsLeft[t])
            // Read through a span: a run-time InlineArray index reads a copy of all 160 octets.
            value = value << UInt32(take) | Self.extract(cache.span[t], from: used, count: take)
            bitsLeft[t] -= UInt8(take)
            needed -= take
        }
        return value
    }

    /// `count` bits (1...32) of a block starting `from` bits below its most significant bit.
    @inline(__always)
    static func extract(_ b: Block128, from: Int, count: Int) -> UInt32 {
        // Shift the 128-bit block left by `from`, then keep the top `count` bits.
        let hi: UInt64
        if from == 0 { hi = b.high } else if from < 64 { hi = b.high << UInt64(from) | b.low >> UInt64(64 - from) } else { hi = b.low << UInt64(from - 64) }
        return UInt32(truncatingIfNeeded: hi >> UInt64(64 - count))
    }

    /// The next octet of a transaction ID's stream.
    @inline(__always)
    public mutating func octet(_ id: TransactionID) -> UInt8 { UInt8(truncatingIfNeeded: bits(8, id)) }

    /// A full 128-bit draw (used by access-address generation).
    public mutating func block(_ id: TransactionID) -> Block128 {
        Block128(words: bits(32, id), bits(32, id), bits(32, id), bits(32, id))
    }

    /// hr1(R) (Vol 6 Part H §4.1.x): a uniform value in 0..<R from one or two octets, by
    /// multiply-and-shift with a rejection-free second octet when the first lands in the bias zone.
    @inline(__always)
    public mutating func hr1(_ r: Int, _ id: TransactionID) -> Int {
        guard r > 1 else { return 0 }
        let t = r * Int(octet(id))
        if t & 0xFF < 256 % r {
            let r2 = Int(octet(id))
            return (256 * r2 * r + t) >> 16
        }
        return t >> 8
    }

    /// cr1 (Vol 6 Part H §4.1.x): the inside-out Fisher–Yates shuffle of `values[0..<count]`, in place.
    public mutating func cr1<let N: Int>(_ values: inout InlineArray<N, UInt8>, count: Int, _ id: TransactionID) {
        var out = InlineArray<N, UInt8>(repeating: 0)
        for i in 0..<count {
            let j = hr1(i + 1, id)
            // Through spans: a run-time InlineArray index reads a copy of the whole array.
            var o = out.mutableSpan
            if i != j { o[i] = o[j] }
            o[j] = values.span[i]
        }
        values = out
    }
}
