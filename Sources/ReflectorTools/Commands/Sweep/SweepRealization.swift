import EmulatorMath
import PhoneEmulation
import RangingEstimation

/// One realization of a sweep: one seeded loopback simulation of a cell (the reflector
/// firmware ranged by the emulated phone through the air, as `reflector-emu loopback --fading`
/// runs it: the multipath redrawn every procedure, so a cell samples seeds × procedures
/// channels), and every estimator of the spec run on the same tones of each procedure. What is
/// kept is each estimate's error against the truth and each procedure's two-path bound at the
/// channel it met; that is all the statistics, the charts, the shards and their merge need.
public struct SweepRealization: Equatable, Sendable {
    /// The realization's number in the grid (`SweepGrid.realization(_:)`).
    public var index: Int
    /// `errors[e][p]`: procedure p's distance from estimator e of the spec minus the true
    /// distance, metres; NaN where the estimator gave no distance (or the procedure did not
    /// run). Every row holds the spec's number of procedures.
    public var errors: [[Double]]
    /// `bounds[p]`: the σ of the two-path bound (`TwoPathBound`, over √N_AP) at the multipath
    /// procedure p met, metres, as `loopback` computes it; NaN for a channel of other than two
    /// rays (free space, TGn) or a procedure that did not run.
    public var bounds: [Double]
    /// `rttBounds[p]`: RTT's bound (`RoundTripTimeBound`) for procedure p's usable round trips,
    /// metres, as `loopback` computes it; NaN for a procedure without timed steps (main mode 2)
    /// or one that did not run.
    public var rttBounds: [Double]

    public init(index: Int, errors: [[Double]], bounds: [Double], rttBounds: [Double]? = nil) {
        self.index = index
        self.errors = errors
        self.bounds = bounds
        self.rttBounds = rttBounds ?? [Double](repeating: .nan, count: bounds.count)
    }

    /// Two arrays are equal when their values have the same bits (NaN is equal to NaN here:
    /// a shard read back is the realization written).
    public static func == (a: Self, b: Self) -> Bool {
        a.index == b.index && a.errors.map { $0.map(\.bitPattern) } == b.errors.map { $0.map(\.bitPattern) }
            && a.bounds.map(\.bitPattern) == b.bounds.map(\.bitPattern) && a.rttBounds.map(\.bitPattern) == b.rttBounds.map(\.bitPattern)
    }

    /// Runs realization `index` of `grid`. Pure: the result depends on the grid's spec and
    /// `index` only, never on the thread or the order it runs in.
    public static func simulate(_ grid: SweepGrid, index: Int) -> SweepRealization {
        let (c, s) = grid.realization(index)
        let cell = grid.cells[c]
        let spec = grid.spec
        let seed = Self.seed(base: spec.seed, cell: cell, seedIndex: s)
        var options = LoopbackOptions()
        options.startDistance = cell.distance
        options.channel = AirChannelChoice(name: cell.channel.name, model: cell.channel.model(seed: seed))
        options.snrDB = cell.snrDB
        options.seed = seed
        options.antennaPaths = cell.antennaPaths
        options.inlinePCT = cell.pct == .inline
        options.procedures = spec.procedures
        options.fading = true
        options.mainMode = cell.mainMode
        let estimators = spec.estimators.map(\.estimator)
        var errors = [[Double]](repeating: [], count: estimators.count)
        for k in errors.indices { errors[k].reserveCapacity(spec.procedures) }
        // The runner estimates with the first estimator itself; the others take its tones.
        var bounds: [Double] = [], rttBounds: [Double] = []
        bounds.reserveCapacity(spec.procedures)
        rttBounds.reserveCapacity(spec.procedures)
        let setup = options.setup
        var runner = ChannelSoundingRunner(setup: setup, estimator: estimators[0])
        var ran = 0
        while ran < spec.procedures, runner.setupFailure == nil, case let .procedure(_, _, tones, roundTrips, estimate)? = runner.next() {
            errors[0].append(error(estimate, truth: cell.distance))
            for k in estimators.indices.dropFirst() {
                errors[k].append(error(estimators[k].estimate(tones, roundTrips: roundTrips), truth: cell.distance))
            }
            bounds.append(LoopbackCommand.twoPathSigma(runner.channelRealization, options) ?? .nan)
            rttBounds.append(roundTrips.samples.isEmpty ? .nan : LoopbackCommand.rttSigma(roundTrips, setup))
            ran += 1
        }
        // A session that failed or ended early measured nothing for the rest.
        for k in errors.indices { errors[k] += [Double](repeating: .nan, count: spec.procedures - ran) }
        bounds += [Double](repeating: .nan, count: spec.procedures - ran)
        rttBounds += [Double](repeating: .nan, count: spec.procedures - ran)
        return SweepRealization(index: index, errors: errors, bounds: bounds, rttBounds: rttBounds)
    }

    static func error(_ estimate: DistanceEstimate?, truth: Double) -> Double {
        guard let d = estimate?.distance, d.isFinite else { return .nan }
        return d - truth
    }

    /// The simulation seed of seed index `seedIndex` of `cell`: FNV-1a of the cell's canonical
    /// text, mixed with the base seed and then the seed index by SplitMix64. It depends on
    /// nothing else (not the cell's place in the grid, not the shard, not the worker), so any
    /// split of a run computes the same realizations, and a two-ray family draws its member
    /// from the same seed.
    public static func seed(base: UInt64, cell: SweepCell, seedIndex: Int) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in cell.key.utf8 { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        var mix = SplitMix64(seed: hash ^ base)
        var perSeed = SplitMix64(seed: mix.next() &+ UInt64(seedIndex) &* 0xD1B5_4A32_D192_ED03)
        return perSeed.next()
    }
}
