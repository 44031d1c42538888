import EmulatorMath
import Foundation

/// The draws tests take from their seeded generator, so random inputs replay exactly.
extension SplitMix64 {
    /// One byte (the low octet of the next value).
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }

    /// `count` bytes, one value each.
    public mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }

    /// An integer in 0..<n (modulo reduction; the bias is irrelevant for test inputs).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// Uniform in [0, 1), 53 random bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A standard normal value by Box–Muller (one value per two draws).
    public mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-300), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A circularly-symmetric complex normal value with E|z|² = `variance`.
    public mutating func complexGaussian(variance: Double) -> Complex {
        let s = (variance / 2).squareRoot()
        return Complex(s * gaussian(), s * gaussian())
    }
}
