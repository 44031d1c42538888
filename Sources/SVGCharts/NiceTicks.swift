#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tick values for an axis at "nice" steps (1, 2 or 5 times a power of ten), so a reader can
/// interpolate between grid lines at a glance (2410, 2420, … rather than 2404.3, 2419.1, …).
public struct NiceTicks: Equatable, Sendable {
    /// The tick values in increasing order; every one lies in the range asked for.
    public let values: [Double]
    /// The distance between neighbouring ticks.
    public let step: Double
    /// Digits after the decimal point the labels need to tell ticks apart (0 for steps ≥ 1).
    public let decimals: Int

    /// Ticks inside `lower...upper` with about `targetCount` intervals. The bounds are put in
    /// order; an empty or non-finite range is padded (see `paddedRange`) rather than trapping.
    public init(lower: Double, upper: Double, targetCount: Int = 5) {
        let (lo, hi) = Self.paddedRange(lower, upper)
        let (mantissa, exponent) = Self.niceStep(span: hi - lo, targetCount: targetCount)
        step = Self.value(index: 1, mantissa: mantissa, exponent: exponent)
        decimals = max(0, -exponent)
        // Tick k is k·mantissa·10^exponent, computed from integers so that 3 × 0.2 is 0.6 exactly.
        let first = (lo / step - 1e-9).rounded(.up)
        let last = (hi / step + 1e-9).rounded(.down)
        var v: [Double] = []
        if first.isFinite, last.isFinite, last >= first {
            var k = first
            while k <= last, v.count < 200 {
                v.append(Self.value(index: k, mantissa: mantissa, exponent: exponent))
                k += 1
            }
        }
        values = v
    }

    /// The range widened outwards to whole steps (`0…37` → `0…40`), with its ticks: how an
    /// automatic axis ends on a labelled grid line at both ends.
    public static func expanded(lower: Double, upper: Double, targetCount: Int = 5) -> (lower: Double, upper: Double, ticks: NiceTicks) {
        let (lo, hi) = paddedRange(lower, upper)
        let (mantissa, exponent) = niceStep(span: hi - lo, targetCount: targetCount)
        let step = value(index: 1, mantissa: mantissa, exponent: exponent)
        let first = (lo / step + 1e-9).rounded(.down)
        let last = (hi / step - 1e-9).rounded(.up)
        var newLo = value(index: first, mantissa: mantissa, exponent: exponent)
        var newHi = value(index: last, mantissa: mantissa, exponent: exponent)
        if !(newLo.isFinite && newHi.isFinite && newLo < newHi) { (newLo, newHi) = (lo, hi) }
        return (newLo, newHi, NiceTicks(lower: newLo, upper: newHi, targetCount: targetCount))
    }

    /// The step for `span` split into about `targetCount` parts, as mantissa (1, 2, 5) and
    /// decimal exponent: the classic "nice numbers" rounding (Heckbert, Graphics Gems, 1990).
    public static func niceStep(span: Double, targetCount: Int) -> (mantissa: Int, exponent: Int) {
        let rough = span / Double(max(1, targetCount))
        guard rough.isFinite, rough > 0 else { return (1, 0) }
        var exponent = Int(log10(rough).rounded(.down))
        let residual = rough / (exponent >= 0 ? SVGNumberFormat.powerOfTen(exponent) : 1 / SVGNumberFormat.powerOfTen(-exponent))
        let mantissa: Int
        switch residual {
        case ..<1.5: mantissa = 1
        case ..<3: mantissa = 2
        case ..<7: mantissa = 5
        default: mantissa = 1; exponent += 1
        }
        return (mantissa, min(max(exponent, -300), 300))
    }

    /// `lower...upper` in order and non-empty: equal bounds are padded by 10 % of their size
    /// (or ±1 at zero) so a constant series still gets an axis; non-finite bounds give `0…1`.
    public static func paddedRange(_ lower: Double, _ upper: Double) -> (Double, Double) {
        guard lower.isFinite, upper.isFinite else { return (0, 1) }
        var lo = min(lower, upper), hi = max(lower, upper)
        let size = max(abs(lo), abs(hi))
        if hi - lo <= size * 1e-12 {
            let pad = size > 0 ? size * 0.1 : 1
            lo -= pad
            hi += pad
        }
        if !(hi - lo).isFinite { lo /= 2; hi /= 2 }  // a span beyond Double's range
        return (lo, hi)
    }

    /// The label of a tick value, with exactly `decimals` digits after the point.
    public func label(_ value: Double) -> String {
        SVGNumberFormat.format(value, decimals: decimals, trimZeros: false)
    }

    private static func value(index: Double, mantissa: Int, exponent: Int) -> Double {
        let n = index * Double(mantissa)
        if exponent >= 0 { return n * SVGNumberFormat.powerOfTen(min(exponent, 308)) }
        // Dividing by an exact power of ten rounds once, to the Double nearest the decimal.
        let e = -exponent
        return e <= 22 ? n / SVGNumberFormat.powerOfTen(e) : n * pow10Negative(e)
    }

    private static func pow10Negative(_ e: Int) -> Double {
        var p = 1.0
        for _ in 0..<min(e, 330) { p /= 10 }
        return p
    }
}
