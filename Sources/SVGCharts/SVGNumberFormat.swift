/// Formats numbers for SVG output without `String(format:)` or a locale, so the same chart gives
/// byte-identical files on every machine (a decimal comma or a platform's rounding would not),
/// and so coordinates never carry noise such as `0.30000000000000004`.
public enum SVGNumberFormat {
    /// `value` with at most `decimals` digits after the point (0...15), rounded half away from
    /// zero; trailing zeros are dropped unless `trimZeros` is false. Never prints `-0`; a
    /// non-finite value prints as `0` (callers skip such values; this keeps the XML valid).
    public static func format(_ value: Double, decimals: Int = 3, trimZeros: Bool = true) -> String {
        guard value.isFinite else { return "0" }
        let d = min(max(decimals, 0), 15)
        let scale = powerOfTen(d)
        let scaled = (abs(value) * scale).rounded()
        // Beyond 2^53 the integer arithmetic below is no longer exact; Swift's shortest
        // round-trip description is deterministic too (no locale), so use it there.
        guard scaled < 9.0e15 else { return value.description }
        let n = UInt64(scaled)
        let unit = UInt64(scale)
        var text = String(n / unit)
        if d > 0 {
            var fraction = String(n % unit)
            fraction = String(repeating: "0", count: d - fraction.count) + fraction
            if trimZeros { while fraction.last == "0" { fraction.removeLast() } }
            if !fraction.isEmpty { text += "." + fraction }
        }
        return value < 0 && n != 0 ? "-" + text : text
    }

    /// 10^n for 0 ≤ n ≤ 22, exact in a Double.
    static func powerOfTen(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<max(0, n) { p *= 10 }
        return p
    }
}
