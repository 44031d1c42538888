import Foundation

/// A small, fast, seedable random number generator: xoshiro256** (Blackman & Vigna 2018),
/// its state filled from the seed by SplitMix64 as the authors recommend. The Air draws every
/// random quantity (LO phases, fading taps, noise, drops, jitter) from generators of this type,
/// so a scenario's seed fixes a whole run bit for bit on every platform: unlike
/// `SystemRandomNumberGenerator` it is reproducible, and unlike Foundation's generators it has
/// one documented algorithm.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Equatable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64
    /// The second value of the last Box–Muller pair, kept for the next `gaussian()`.
    private var spareGaussian: Double?

    public init(seed: UInt64) {
        var seeding = SplitMix64(seed: seed)
        s0 = seeding.next()
        s1 = seeding.next()
        s2 = seeding.next()
        s3 = seeding.next()
        spareGaussian = nil
    }

    /// An independent stream for one purpose (`stream` names it), so that, for example, turning
    /// noise on does not change the channel realization drawn from the same scenario seed.
    public init(seed: UInt64, stream: UInt64) {
        self.init(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
    }

    @inline(__always)
    private static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    @inline(__always)
    public mutating func next() -> UInt64 {
        let result = SeededGenerator.rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = SeededGenerator.rotl(s3, 45)
        return result
    }

    /// Uniform in [0, 1), 53 random bits.
    @inline(__always)
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// True with probability `p` (never for p ≤ 0, always for p ≥ 1, and then without drawing,
    /// so a zero probability leaves the stream untouched).
    @inline(__always)
    public mutating func bernoulli(_ p: Double) -> Bool {
        if p <= 0 { return false }
        if p >= 1 { return true }
        return uniform() < p
    }

    /// A uniform phase in [0, 2π).
    @inline(__always)
    public mutating func phase() -> Double { uniform() * 2 * Double.pi }

    /// Two independent standard normal values by the Box–Muller transform.
    @inline(__always)
    public mutating func gaussianPair() -> (Double, Double) {
        let u1 = 1 - uniform()  // (0, 1]: log stays finite
        let u2 = uniform()
        let r = (-2 * log(u1)).squareRoot()
        let a = 2 * Double.pi * u2
        return (r * _cos(a), r * _sin(a))
    }

    /// One standard normal value (the pair's second half is kept for the next call).
    @inline(__always)
    public mutating func gaussian() -> Double {
        if let g = spareGaussian {
            spareGaussian = nil
            return g
        }
        let (a, b) = gaussianPair()
        spareGaussian = b
        return a
    }

    /// A circularly-symmetric complex normal value with E|z|² = `variance`: each part has
    /// variance `variance`/2.
    @inline(__always)
    public mutating func complexGaussian(variance: Double) -> Complex {
        let (a, b) = gaussianPair()
        let s = (variance / 2).squareRoot()
        return Complex(a * s, b * s)
    }
}
