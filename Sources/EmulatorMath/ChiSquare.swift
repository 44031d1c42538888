import Foundation

/// The chi-square distribution with an integer number of degrees of freedom: the exact upper
/// tail (closed forms in exp and erfc) and its quantile by bisection. Used for the residual
/// tests of `TDoALeastSquares` and the innovation gate of `PositionTracker`.
public enum ChiSquare {
    /// P(X > x) for X ~ χ²(k), k ≥ 1 (closed form: Abramowitz & Stegun 26.4.4–26.4.5).
    public static func upperTail(_ x: Double, degreesOfFreedom k: Int) -> Double {
        precondition(k >= 1, "chi-square needs k >= 1")
        if x <= 0 { return 1 }
        let h = x / 2
        let e = exp(-h)
        if k % 2 == 0 {
            var term = 1.0, sum = 1.0
            var i = 1
            while i < k / 2 {
                term *= h / Double(i)
                sum += term
                i += 1
            }
            return min(1, e * sum)
        }
        // Odd: erfc(√h) + e^{-h} Σ_{i=1}^{(k-1)/2} h^{i-1/2}/Γ(i+1/2).
        var sum = 0.0
        var term = h.squareRoot() / (Double.pi.squareRoot() / 2)  // h^{1/2}/Γ(3/2)
        var i = 1
        while i <= (k - 1) / 2 {
            sum += term
            term *= h / (Double(i) + 0.5)
            i += 1
        }
        return min(1, erfc(h.squareRoot()) + e * sum)
    }

    /// The x with P(X ≤ x) = `probability` for X ~ χ²(k) (bisection on the exact tail, to
    /// 1e-10 relative).
    public static func quantile(_ probability: Double, degreesOfFreedom k: Int) -> Double {
        precondition(probability > 0 && probability < 1, "probability must be in (0, 1)")
        let tail = 1 - probability
        var lo = 0.0, hi = Double(k) + 10
        while upperTail(hi, degreesOfFreedom: k) > tail { hi *= 2 }
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if upperTail(mid, degreesOfFreedom: k) > tail { lo = mid } else { hi = mid }
            if hi - lo < 1e-10 * hi { break }
        }
        return (lo + hi) / 2
    }

    /// Quantiles for k = 1...`maxDegreesOfFreedom` (index k − 1), computed once for a
    /// solver's lifetime so the per-fix tests cost a table look-up.
    public static func quantileTable(_ probability: Double, maxDegreesOfFreedom: Int) -> [Double] {
        (1...max(1, maxDegreesOfFreedom)).map { quantile(probability, degreesOfFreedom: $0) }
    }
}
