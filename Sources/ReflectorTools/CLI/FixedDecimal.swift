import Foundation

/// The one fixed-decimal number formatter of the tool's text and JSON output: `value` with
/// exactly `decimals` digits after the point, the same bytes as C's `%.Nf` (glibc rounds the
/// exact binary value of the double, ties to even, and keeps the sign of a negative value that
/// rounds to zero: `-0.000`), so outputs stay byte-identical to what `String(format:)` printed,
/// without its cost or a locale.
///
/// The fast path multiplies by 10^decimals and rounds. The product is rounded once, so it can
/// only land on the wrong side of a half when it lies within an ulp of one; there the exact
/// product's error (`fma`) decides, and an exact tie goes to the even neighbour. Values too
/// large for 52-bit integer arithmetic take `String(format:)`, which is exact.
public enum FixedDecimal {
    /// The most digits after the point the fast path handles (10^15 is exact in a Double).
    public static let maximumDecimals = 15

    static let powers: [Double] = (0...maximumDecimals).map { n in (0..<n).reduce(1.0) { p, _ in p * 10 } }
    static let integerPowers: [UInt64] = (0...maximumDecimals).map { n in (0..<n).reduce(UInt64(1)) { p, _ in p * 10 } }

    /// Appends `value` with `decimals` digits (0...15) to `out` as ASCII and returns true; a
    /// non-finite value appends nothing and returns false (JSON writes null, text `nan`).
    public static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) -> Bool {
        guard value.isFinite else { return false }
        let d = min(max(decimals, 0), maximumDecimals)
        let magnitude = value.magnitude
        let scale = powers[d]
        let product = magnitude * scale
        guard product < 0x1p52 else {
            out.append(contentsOf: String(format: "%.\(d)f", value).utf8)
            return true
        }
        var n = UInt64(product.rounded(.down))
        // The distance from the product to the half above its integer part; k + 0.5 is exact.
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
        if value.sign == .minus { out.append(UInt8(ascii: "-")) }
        let unit = integerPowers[d]
        appendDecimal(n / unit, to: &out)
        if d > 0 {
            out.append(UInt8(ascii: "."))
            var fraction = n % unit
            let start = out.count
            for _ in 0..<d {
                out.append(UInt8(ascii: "0") + UInt8(fraction % 10))
                fraction /= 10
            }
            out[start..<out.count].reverse()
        }
        return true
    }

    /// The decimal digits of `v`.
    public static func appendDecimal(_ v: UInt64, to out: inout [UInt8]) {
        if v < 10 {
            out.append(UInt8(ascii: "0") + UInt8(v))
            return
        }
        var v = v
        let start = out.count
        while v > 0 {
            out.append(UInt8(ascii: "0") + UInt8(v % 10))
            v /= 10
        }
        out[start..<out.count].reverse()
    }

    /// The text `%.Nf` prints: digits for a finite value, `nan`, `inf` or `-inf` otherwise.
    public static func text(_ value: Double, _ decimals: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        guard append(value, decimals: decimals, to: &bytes) else {
            return value.isNaN ? (value.sign == .minus ? "-nan" : "nan") : (value < 0 ? "-inf" : "inf")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
