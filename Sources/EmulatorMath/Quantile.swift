/// The one quantile definition every summary, report and test of the project uses, so that a
/// "P90" means the same number everywhere: linear interpolation between order statistics
/// (Hyndman & Fan 1996, definition 7; NumPy's and R's default). For sorted x₀ … xₙ₋₁ and
/// p in [0, 1], h = (n − 1)·p and Q(p) = x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋).
public enum Quantile {
    /// The p-quantile of `values` (any order); nil when there are none. `p` is clamped to [0, 1].
    public static func of<C: Collection>(_ values: C, _ p: Double) -> Double? where C.Element == Double {
        guard !values.isEmpty else { return nil }
        return ofSorted(values.sorted(), p)
    }

    /// The p-quantile of values already sorted in ascending order; nil when there are none.
    public static func ofSorted(_ sorted: [Double], _ p: Double) -> Double? {
        guard let first = sorted.first else { return nil }
        guard sorted.count > 1 else { return first }
        let h = Double(sorted.count - 1) * min(max(p, 0), 1)
        let below = Int(h.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        let fraction = h - Double(below)
        // An exact position or equal neighbours need no interpolation, which would turn an
        // infinite neighbour into NaN (0 × ∞, ∞ − ∞): an unbounded value stays unbounded.
        if fraction == 0 || sorted[below] == sorted[above] { return sorted[below] }
        return sorted[below] + fraction * (sorted[above] - sorted[below])
    }
}
