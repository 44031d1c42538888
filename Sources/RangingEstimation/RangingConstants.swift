/// Constants and small helpers shared by the phase-based ranging estimators.
///
/// CS tones sit on a 1 MHz raster (CS channel k at 2402 + k MHz). The round-trip phase is
/// −4π·f·d/c, so the per-MHz phase step wraps after `d = c/(2·1 MHz)` ≈ 149.9 m: every estimator
/// maps its result into `[0, ambiguityRange)` (reference estimation.md §2.5, "Unambiguous range").
public enum Ranging {
    /// Speed of light in vacuum, m/s.
    public static let speedOfLight = 299_792_458.0
    /// Spacing of the CS channel raster, Hz.
    public static let toneSpacing = 1e6
    /// The unambiguous range of round-trip phase ranging at 1 MHz spacing: c/(2·Δf) ≈ 149.896 m.
    public static let ambiguityRange = speedOfLight / (2 * toneSpacing)
    /// Number of CS channel indices (0…78); only 2…22 and 26…76 may be sounded.
    public static let channelCount = 79
    /// The 72 channels the Core allows for CS (Vol 6 Part H Table 1.1): 2…22 and 26…76.
    public static let allowedChannels: [UInt8] = Array(2...22) + Array(26...76)

    /// RF frequency of CS channel k in Hz.
    @inline(__always) public static func frequency(channel: UInt8) -> Double { (2402.0 + Double(channel)) * 1e6 }

    /// How far below zero a noisy estimate of a very close accessory may fall before it is
    /// taken for a far one: the window of reported distances is [−margin, R − margin).
    public static let nearMargin = 10.0

    /// Maps any distance into the reported window: d and d ± n·149.9 m are the same phase
    /// measurement, and the project reads it as lying in [−10 m, 139.9 m), reporting the small
    /// negative values of a close accessory as 0 (no phone ranges an accessory 140 m away, but
    /// noise routinely pushes an estimate at 0.3 m to −0.01 m, which must not become 149.9 m).
    @inline(__always) public static func wrap(_ d: Double) -> Double {
        let r = ambiguityRange
        var x = d.truncatingRemainder(dividingBy: r)
        if x < 0 { x += r }
        if x >= r - nearMargin { x -= r }
        return max(0, x)
    }

    /// The signed difference a − b on the ambiguity circle, in `[−R/2, R/2)`.
    @inline(__always) public static func circularDifference(_ a: Double, _ b: Double) -> Double {
        let r = ambiguityRange
        var x = (a - b).truncatingRemainder(dividingBy: r)
        if x >= r / 2 { x -= r } else if x < -r / 2 { x += r }
        return x
    }
}
