import Foundation

/// The one fixed-decimal number formatter of the tool's text and JSON output: `value` with
/// exactly `decimals` digits after the point, the same bytes as C's `%.Nf` (glibc rounds the
/// exact binary value of the double, ties to even, and keeps the sign of a negative value that
/// rounds to zero: `-0.000`), so outputs stay byte-identical to what `String(format:)` printed,
/// without its cost or a locale.
///
/// The fast path multiplies by 10^decimals and rounds. The product is rounded once, so it can
/// only land on the wrong side of a half when it lies within an ulp of one; there the exact
/// product's error (a fused multiply-add) decides, and an exact tie goes to the even
/// neighbour. Values too large for 52-bit integer arithmetic take `String(format:)`, which is
/// exact (they do not occur in the tool's output).
public enum FixedDecimal {
    /// The most digits after the point the fast path handles (10^15 is exact in a Double).
    public static let maximumDecimals = 15
    /// The most bytes the fast path writes: a sign, 16 integer digits, the point, 15 decimals.
    public static let fastPathLength = 40

    /// Writes `value` with `decimals` digits (0...15) at `p` and returns the length; nil, with
    /// nothing written, for a value that is not finite or is too large for the fast path.
    @inline(__always)
    public static func write(_ value: Double, decimals: Int, to p: UnsafeMutablePointer<UInt8>) -> Int? {
        guard value.isFinite else { return nil }
        let d = min(max(decimals, 0), maximumDecimals)
        let magnitude = value.magnitude
        let scale = power(d)
        let product = magnitude * scale
        guard product < 0x1p52 else { return nil }
        var n = UInt64(product.rounded(.down))
        // The distance from the product to the half above its integer part (n + 0.5 is exact).
        let aboveHalf = product - (Double(n) + 0.5)
        if aboveHalf.magnitude > product.ulp {
            if aboveHalf > 0 { n += 1 }
        } else {
            // Near a half: the exact product is product + error, the error exact by a fused
            // multiply-add; a tie goes to the even neighbour.
            let error = (-product).addingProduct(magnitude, scale)
            let exact = aboveHalf + error
            if exact > 0 || (exact == 0 && n & 1 == 1) { n += 1 }
        }
        var length = 0
        if value.sign == .minus {
            p.pointee = UInt8(ascii: "-")
            length = 1
        }
        if d == 0 { return length + writeDecimal(n, to: p + length) }
        let unit = integerPower(d)
        length += writeDecimal(n / unit, to: p + length)
        p[length] = UInt8(ascii: ".")
        var fraction = n % unit
        var k = length + d
        while k > length {
            p[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
            fraction /= 10
            k -= 1
        }
        return length + 1 + d
    }

    /// Writes the decimal digits of `v` at `p` (at most 20) and returns how many.
    @inline(__always)
    public static func writeDecimal(_ v: UInt64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if v < 10 {
            p.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
            return 1
        }
        var digits = 1
        var t = v
        while t >= 10 {
            t /= 10
            digits += 1
        }
        var v = v
        var k = digits - 1
        let pairs = pairDigits.utf8Start
        while v >= 100 {
            let r = Int(v % 100) * 2
            v /= 100
            p[k] = pairs[r + 1]
            p[k - 1] = pairs[r]
            k -= 2
        }
        if v >= 10 {
            p[k] = pairs[Int(v) * 2 + 1]
            p[k - 1] = pairs[Int(v) * 2]
        } else {
            p[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
        }
        return digits
    }

    /// "00" "01" ... "99": two digits at a time.
    static let pairDigits: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    @inline(__always)
    static func power(_ d: Int) -> Double {
        switch d {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        default:
            (0..<d).reduce(1.0) { p, _ in p * 10 }
        }
    }

    @inline(__always)
    static func integerPower(_ d: Int) -> UInt64 {
        var p: UInt64 = 1
        for _ in 0..<d { p &*= 10 }
        return p
    }

    /// The text `%.Nf` prints: digits for a finite value, `nan`, `inf` or `-inf` otherwise.
    public static func text(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else {
            return value.isNaN ? (value.sign == .minus ? "-nan" : "nan") : (value < 0 ? "-inf" : "inf")
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: fastPathLength) { buffer in
            guard let n = write(value, decimals: decimals, to: buffer.baseAddress!) else {
                return String(format: "%.\(min(max(decimals, 0), maximumDecimals))f", value)
            }
            return String(decoding: UnsafeBufferPointer(start: buffer.baseAddress!, count: n), as: UTF8.self)
        }
    }
}

/// `%.Nf` text of a number (`FixedDecimal`): the tool's one way of printing a measurement.
package func fixed(_ v: Double, _ decimals: Int) -> String { FixedDecimal.text(v, decimals) }
