/// A 128-bit block held as two big-endian halves, most significant octet first, the
/// order in which the Core specification writes keys, nonces and sample data.
///
/// Keeping the block in two `UInt64`s makes the DRBG's nonce arithmetic (adding to the
/// low bits of V, Core 6.0 Vol 6 Part E §3.2.2) plain integer addition, and costs no heap.
public struct Block128: Equatable, Hashable, Sendable {
    /// Octets 0...7 (most significant half).
    public var high: UInt64
    /// Octets 8...15 (least significant half).
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public static let zero = Block128(high: 0, low: 0)

    /// Octet `index` (0 = most significant), as the spec numbers octets in sample data.
    @inline(__always)
    public func octet(_ index: Int) -> UInt8 {
        index < 8
            ? UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * index))
            : UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * (index - 8)))
    }

    /// Big-endian 32-bit word `index` (0 = most significant).
    @inline(__always)
    public func word(_ index: Int) -> UInt32 {
        switch index {
        case 0: return UInt32(truncatingIfNeeded: high >> 32)
        case 1: return UInt32(truncatingIfNeeded: high)
        case 2: return UInt32(truncatingIfNeeded: low >> 32)
        default: return UInt32(truncatingIfNeeded: low)
        }
    }

    @inline(__always)
    public init(words w0: UInt32, _ w1: UInt32, _ w2: UInt32, _ w3: UInt32) {
        high = UInt64(w0) << 32 | UInt64(w1)
        low = UInt64(w2) << 32 | UInt64(w3)
    }

    /// Builds a block from 16 octets, most significant first. Fewer octets are zero-padded on the right.
    public init(octets: some Sequence<UInt8>) {
        var h: UInt64 = 0
        var l: UInt64 = 0
        var i = 0
        for b in octets where i < 16 {
            if i < 8 { h |= UInt64(b) << UInt64(56 - 8 * i) } else { l |= UInt64(b) << UInt64(56 - 8 * (i - 8)) }
            i += 1
        }
        high = h
        low = l
    }

    /// The 16 octets, most significant first.
    public var octets: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16)
        for i in 0..<16 { out.append(octet(i)) }
        return out
    }

    @inline(__always)
    public static func ^ (a: Block128, b: Block128) -> Block128 {
        Block128(high: a.high ^ b.high, low: a.low ^ b.low)
    }
}
