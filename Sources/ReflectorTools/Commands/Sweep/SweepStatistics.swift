import CaptureEstimation
import EmulatorMath
import RangingEstimation

/// The figures of one grid point and one estimator over every procedure of its realizations
/// (seed index by seed index, each in procedure order: the order every run and every merge
/// sums in, so equal inputs give equal bits).
public struct SweepCellStatistics: Equatable, Sendable {
    /// The grid point's index (`SweepGrid.cells`); for a channel's pooled row
    /// (`SweepStatistics.pooledRows`), the channel's index in the spec.
    public var cell: Int
    public var estimator: EstimatorChoice
    /// Procedures run: seeds × procedures per realization.
    public var procedures: Int
    /// Procedures that gave a distance.
    public var estimated: Int
    /// Root mean square of the errors (estimate − truth), metres; nil without a distance.
    public var rmse: Double?
    /// Mean error, metres (its sign says which way the estimator leans).
    public var bias: Double?
    /// Quantiles of |error| (EmulatorMath's `Quantile`, interpolated), metres.
    public var p50: Double?
    public var p90: Double?
    public var p99: Double?
    /// The Cramér–Rao bound of the cell (`SweepStatistics.crlb`), metres; for `rtt`, and for any
    /// estimator in main mode 1, RTT's bound at the round trips the procedures had
    /// (`SweepStatistics.rttBound(of:)`) where they had any.
    public var crlb: Double
    /// The P90 of |error| that the two-path bound allows at the channels these procedures met
    /// (`TwoPathBound.quantile` over their σ, `SweepRealization.bounds`), metres; nil where the
    /// channel has other than two rays. Under multipath it, not the CRLB, is the floor.
    public var boundP90: Double?
    /// The RMSE over the procedures every estimator of the spec gave a distance for, metres
    /// (nil with one estimator, or when no procedure has them all): estimators that refuse
    /// different procedures are compared on the same ones.
    public var commonRMSE: Double?
    /// The P90 of |error| over every procedure run, one without a distance counting as an
    /// unbounded error (nil when more than a tenth gave none): what a user who needs a distance
    /// from every procedure gets, so an estimator that refuses hard procedures is not flattered.
    public var p90OfAll: Double?

    /// The P90 of `sorted` with `missing` unbounded values after them, as `Quantile` interpolates
    /// (Hyndman & Fan definition 7); nil when it falls on or beyond an unbounded one.
    static func p90(_ sorted: [Double], missing: Int) -> Double? {
        let n = sorted.count + missing
        guard n > 0 else { return nil }
        let h = Double(n - 1) * 0.9
        let lo = Int(h), frac = h - Double(lo)
        guard lo < sorted.count else { return nil }
        if frac == 0 { return sorted[lo] }
        guard lo + 1 < sorted.count else { return nil }
        return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo])
    }

    public var fractionEstimated: Double { procedures == 0 ? 0 : Double(estimated) / Double(procedures) }
    public var rmseOverCRLB: Double? { rmse.map { $0 / crlb } }
    /// The P90 over the two-path bound's: how far above the floor of its own channels.
    public var p90OverBound: Double? {
        guard let p90, let b = boundP90, b > 0 else { return nil }
        return p90 / b
    }

    /// The figures of `errors` (NaN: no distance) for `cell` and `estimator`, with the P90 the
    /// two-path bound allows at their channels (`SweepStatistics.boundP90(of:)`).
    init(cell: Int, estimator: EstimatorChoice, errors: [Double], crlb: Double, boundP90: Double? = nil, common: [Bool]? = nil) {
        self.cell = cell
        if let common {
            var squares = 0.0, n = 0
            for (e, keep) in zip(errors, common) where keep {
                squares += e * e
                n += 1
            }
            commonRMSE = n == 0 ? nil : (squares / Double(n)).squareRoot()
        }
        self.estimator = estimator
        self.crlb = crlb
        self.boundP90 = boundP90
        procedures = errors.count
        var sum = 0.0, squares = 0.0
        var magnitudes: [Double] = []
        magnitudes.reserveCapacity(errors.count)
        for e in errors where !e.isNaN {
            sum += e
            squares += e * e
            magnitudes.append(abs(e))
        }
        estimated = magnitudes.count
        guard estimated > 0 else { return }
        let n = Double(estimated)
        bias = sum / n
        rmse = (squares / n).squareRoot()
        magnitudes.sort()
        p90OfAll = Self.p90(magnitudes, missing: errors.count - magnitudes.count)
        p50 = Quantile.ofSorted(magnitudes, 0.5)
        p90 = Quantile.ofSorted(magnitudes, 0.9)
        p99 = Quantile.ofSorted(magnitudes, 0.99)
    }
}

/// A whole sweep's results: every realization's errors gathered per grid point and estimator,
/// and the statistics of each, in grid order (cells as `SweepGrid` orders them, the spec's
/// estimators within each). Pure: built from the realizations alone, whether one run computed
/// them or a merge read them from shards.
public struct SweepStatistics: Sendable {
    public let grid: SweepGrid
    /// `errors[cell][estimator]`: every procedure's error, seed index by seed index.
    public let errors: [[[Double]]]
    /// `bounds[cell]`: every procedure's two-path σ (NaN: none), in the same order.
    public let bounds: [[Double]]
    /// `rttBounds[cell]`: every procedure's RTT σ (NaN: no timed steps), in the same order.
    public let rttBounds: [[Double]]
    /// One row per cell and estimator, cell-major.
    public let rows: [SweepCellStatistics]

    /// `realizations` must be the grid's every realization, in order (a run's or a merge's).
    public init(grid: SweepGrid, realizations: [SweepRealization]) {
        precondition(realizations.count == grid.realizationCount && realizations.indices.allSatisfy { realizations[$0].index == $0 },
                      "SweepStatistics needs every realization of the grid in order")
        self.grid = grid
        let spec = grid.spec
        var errors: [[[Double]]] = []
        var bounds: [[Double]] = []
        var rttBounds: [[Double]] = []
        var rows: [SweepCellStatistics] = []
        errors.reserveCapacity(grid.cells.count)
        for (c, cell) in grid.cells.enumerated() {
            let crlb = Self.crlb(snrDB: cell.snrDB, antennaPaths: cell.antennaPaths)
            var sigmas: [Double] = []
            sigmas.reserveCapacity(spec.seeds * spec.procedures)
            var rttSigmas: [Double] = []
            rttSigmas.reserveCapacity(spec.seeds * spec.procedures)
            for s in 0..<spec.seeds {
                sigmas += realizations[grid.index(cell: c, seed: s)].bounds
                rttSigmas += realizations[grid.index(cell: c, seed: s)].rttBounds
            }
            let boundP90 = Self.boundP90(of: sigmas)
            let rttBound = Self.rttBound(of: rttSigmas)
            var perEstimator: [[Double]] = []
            for e in spec.estimators.indices {
                var all: [Double] = []
                all.reserveCapacity(spec.seeds * spec.procedures)
                for s in 0..<spec.seeds { all += realizations[grid.index(cell: c, seed: s)].errors[e] }
                perEstimator.append(all)
            }
            let common = Self.common(perEstimator)
            for (e, estimator) in spec.estimators.enumerated() {
                // Without tones (main mode 1) every estimator's distance is the timing's.
                let bound = estimator == .rtt || cell.mainMode == .mode1 ? rttBound ?? crlb : crlb
                rows.append(SweepCellStatistics(cell: c, estimator: estimator, errors: perEstimator[e], crlb: bound, boundP90: boundP90, common: common))
            }
            errors.append(perEstimator)
            bounds.append(sigmas)
            rttBounds.append(rttSigmas)
        }
        self.errors = errors
        self.bounds = bounds
        self.rttBounds = rttBounds
        self.rows = rows
    }

    /// The Cramér–Rao bound on one procedure's distance error at per-tone SNR `snrDB` with
    /// `antennaPaths` antenna paths, metres: the tones of the 72 allowed channels, two-sided
    /// noise (both devices measure a noisy PCT, with inline PCT as over RAS, so the round-trip
    /// phase variance is 1/ρ), as `loopback` and `bench accuracy` state it.
    ///
    /// N_AP divides it by √N_AP. The decision: every antenna path sees the same distance with
    /// independent noise (the air places the antennas at one point, so the line-of-sight delay
    /// is common), and each path's unknown phase offset costs nothing in the slope, so the Fisher
    /// information of the paths adds. It is the bound of an estimator that uses all paths (the
    /// multipath fit fits them jointly; averaging per-path phase slopes reaches it in free
    /// space too); a path selection (first, strongest) cannot. Under multipath the bound is
    /// still the single-path one: it ignores the bias a reflection causes, so a ratio far
    /// above 1 there measures the multipath penalty, not the noise.
    public static func crlb(snrDB: Double, antennaPaths: Int) -> Double {
        CramerRaoBound.distanceStandardDeviation(frequencies: CramerRaoBound.allowedChannelFrequencies, snrDB: snrDB,
                                                 noise: .twoSided, paths: antennaPaths)
    }

    /// Which procedures every estimator gave a distance for (`errors[e][p]` not NaN for every
    /// e); nil with fewer than two estimators, where there is nothing to compare.
    static func common(_ errors: [[Double]]) -> [Bool]? {
        guard errors.count > 1, let n = errors.first?.count else { return nil }
        return (0..<n).map { p in errors.allSatisfy { !$0[p].isNaN } }
    }

    /// RTT's bound over procedures of RTT σ `sigmas` (NaN: no timed steps): their root mean
    /// square, the RMSE an efficient timing estimator would have on them, as `loopback` states
    /// it; nil when none timed a round trip.
    public static func rttBound(of sigmas: [Double]) -> Double? { LoopbackSummary.rms(sigmas.filter(\.isFinite)) }

    /// The P90 of |error| the two-path bound allows over procedures of σ `sigmas` (NaN: no
    /// bound), the mixture's (`TwoPathBound.quantile`); nil when none has a bound. Past 4,096
    /// bounds the mixture is taken over 4,096 evenly spaced order statistics of them (the
    /// quantile moves by less than 0.1 % of itself, and a pooled row of millions of procedures
    /// stays quick).
    public static func boundP90(of sigmas: [Double]) -> Double? {
        var finite = sigmas.filter(\.isFinite)
        guard !finite.isEmpty else { return nil }
        if finite.count > 4096 {
            finite.sort()
            let n = finite.count
            finite = (0..<4096).map { finite[($0 * 2 + 1) * n / 8192] }
        }
        let q = TwoPathBound.quantile(0.9, ofAbsoluteErrorsWith: finite)
        return q.isFinite ? q : nil
    }

    /// Per channel model (cell = the channel's index) and estimator, every procedure of the
    /// channel's grid points pooled (`pooledErrors`): the figures docs/figures.md quotes for a model
    /// over a range of distances. RTT's bound is that of every procedure's RTT σ pooled; the
    /// phase bound is the root mean square of its grid points' bounds,
    /// so x_crlb stays the RMSE over what an efficient estimator would have on the same mix; the
    /// two-path bound's P90 is that of every procedure's σ pooled the same way.
    public var pooledRows: [SweepCellStatistics] {
        var out: [SweepCellStatistics] = []
        for (k, channel) in grid.spec.channels.enumerated() {
            let cells = grid.cells.filter { $0.channel == channel }
            let bound = (cells.reduce(0) { let b = Self.crlb(snrDB: $1.snrDB, antennaPaths: $1.antennaPaths); return $0 + b * b } / Double(max(1, cells.count))).squareRoot()
            var sigmas: [Double] = [], rttSigmas: [Double] = []
            for (c, cell) in grid.cells.enumerated() where cell.channel == channel {
                sigmas += bounds[c]
                rttSigmas += rttBounds[c]
            }
            let boundP90 = Self.boundP90(of: sigmas)
            let rttBound = Self.rttBound(of: rttSigmas)
            let pooled = pooledErrors(channel: k)
            let common = Self.common(pooled)
            for (e, errors) in pooled.enumerated() {
                let estimator = grid.spec.estimators[e]
                out.append(SweepCellStatistics(cell: k, estimator: estimator, errors: errors, crlb: estimator == .rtt ? rttBound ?? bound : bound,
                                               boundP90: boundP90, common: common))
            }
        }
        return out
    }

    /// The rows of channel `channel` (an index into the spec's channels) pooled per estimator:
    /// every procedure of every distance, SNR, N_AP and PCT value with that channel (what one
    /// panel of the chart shows).
    public func pooledErrors(channel: Int) -> [[Double]] {
        var pooled = [[Double]](repeating: [], count: grid.spec.estimators.count)
        for (c, cell) in grid.cells.enumerated() where cell.channel == grid.spec.channels[channel] {
            for e in pooled.indices { pooled[e] += errors[c][e] }
        }
        return pooled
    }
}
