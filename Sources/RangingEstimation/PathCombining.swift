/// How a procedure's per-antenna-path estimates become one distance.
///
/// Antenna paths see different multipath but the same direct path, so their estimates are
/// independent looks at d: averaging M agreeing paths divides σ_d by √M (reference §2.5), while a
/// path dominated by a reflection is an outlier to drop. Nordic `cs_de` does not fuse paths
/// (`best` per path); the Zephyr sample pools them into one fit (§1.1, §1.3).
///
/// All modes work on the ambiguity circle: a path at 149.8 m and one at 0.1 m are 0.2 m apart.
public enum PathCombining: Sendable, Equatable {
    /// Median of the usable paths' distances (circular, around the best path).
    case median
    /// Only the highest-quality path, like Nordic's per-path `best` without fusion.
    case best
    /// Default. Quality-weighted mean of the paths within `tolerance` metres of the median
    /// (the others are treated as multipath outliers). With equal qualities and agreeing
    /// paths this is the plain mean, which reaches the M-path CRLB σ_d/√M.
    case robustMean(tolerance: Double)

    public static let `default` = PathCombining.robustMean(tolerance: 0.5)

    /// Combines per-path estimates (`nil` = unusable path); `nil` if none is usable.
    public func combine(_ estimates: [DistanceEstimate?]) -> DistanceEstimate? {
        let usable = estimates.compactMap { $0 }
        guard let first = usable.first else { return nil }
        guard usable.count > 1 else {
            var e = first
            e.diagnostics = nil
            return e
        }
        let best = usable.max { $0.quality < $1.quality }!
        let tones = usable.reduce(0) { $0 + $1.toneCount }
        // Offsets from the best path on the ambiguity circle, so wrapped paths compare correctly.
        let offsets = usable.map { Ranging.circularDifference($0.distance, best.distance) }
        let sorted = offsets.sorted()
        let n = sorted.count
        let median = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
        switch self {
        case .best:
            return DistanceEstimate(distance: best.distance, quality: best.quality, method: best.method,
                                    toneCount: best.toneCount, pathCount: 1)
        case .median:
            let q = usable.reduce(0) { $0 + $1.quality } / Double(usable.count)
            return DistanceEstimate(distance: Ranging.wrap(best.distance + median), quality: q,
                                    method: best.method, toneCount: tones, pathCount: usable.count)
        case .robustMean(let tolerance):
            var sw = 0.0, sx = 0.0, sq = 0.0, count = 0, used = 0
            for (e, o) in zip(usable, offsets) where abs(o - median) <= tolerance {
                let w = max(e.quality, 1e-6)
                sw += w
                sx += w * o
                sq += e.quality
                count += 1
                used += e.toneCount
            }
            guard count > 0 else {
                return DistanceEstimate(distance: Ranging.wrap(best.distance + median), quality: 0,
                                        method: best.method, toneCount: tones, pathCount: usable.count)
            }
            return DistanceEstimate(distance: Ranging.wrap(best.distance + sx / sw), quality: sq / Double(count),
                                    method: best.method, toneCount: used, pathCount: count)
        }
    }
}
