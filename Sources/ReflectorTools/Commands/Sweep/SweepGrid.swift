import ReflectorFirmware

/// One grid point apart from the estimator: the conditions one realization simulates. Every
/// estimator of the spec runs on the same realizations of a cell, so they are compared on
/// identical tones.
public struct SweepCell: Equatable, Sendable {
    public var distance: Double
    public var channel: AirChannelFamily
    public var snrDB: Double
    public var antennaPaths: Int
    public var pct: PCTTransfer
    public var mainMode: CSMode = .mode2

    /// The cell's canonical text, "distance 3.0 m, channel light, SNR 20.0 dB, N_AP 1, PCT inline"
    /// (numbers in their shortest round-trip form), with ", main mode 1" or 3 after it for those
    /// modes (mode 2's text is the one from before sweeps had modes, so its seeds are unchanged).
    /// Realization seeds are derived from it (not from the cell's position in the grid), so a
    /// cell gives the same numbers in any grid that holds it.
    public var key: String {
        "distance \(distance) m, channel \(channel.name), SNR \(snrDB) dB, N_AP \(antennaPaths), PCT \(pct.rawValue)"
            + (mainMode == .mode2 ? "" : ", main mode \(mainMode.rawValue)")
    }
}

/// A spec expanded: its cells in a fixed order (distances outermost, then channels, SNRs,
/// antenna paths, PCT transfer and main modes, each in the order the spec lists them) and its realizations
/// numbered cell by cell, realization `r` being seed index `r % seeds` of cell `r / seeds`.
/// Everything downstream (runs, shards, merges, reports) orders by these numbers, never by
/// when a worker finished.
public struct SweepGrid: Sendable {
    public let spec: SweepSpec
    public let cells: [SweepCell]

    public init(_ spec: SweepSpec) {
        self.spec = spec
        var cells: [SweepCell] = []
        cells.reserveCapacity(spec.cellCount)
        for d in spec.distances {
            for c in spec.channels {
                for s in spec.snrs {
                    for n in spec.antennaPaths {
                        for p in spec.pct {
                            for m in spec.mainModes { cells.append(SweepCell(distance: d, channel: c, snrDB: s, antennaPaths: n, pct: p, mainMode: m)) }
                        }
                    }
                }
            }
        }
        self.cells = cells
    }

    public var realizationCount: Int { cells.count * spec.seeds }

    /// The cell and seed index of realization `index`.
    public func realization(_ index: Int) -> (cell: Int, seed: Int) { (index / spec.seeds, index % spec.seeds) }

    /// The number of the realization with seed index `seed` of cell `cell`.
    public func index(cell: Int, seed: Int) -> Int { cell * spec.seeds + seed }

    /// The realizations a shard runs (all of them without one), in order.
    public func realizations(in shard: SweepShard.Selection?) -> [Int] { Self.realizations(of: spec, in: shard) }

    /// The realizations of `spec` a shard runs, in order: those whose seed index is congruent to
    /// the shard's index modulo the shard count, so every shard takes a share of every cell and
    /// the shards of a split take similar times. From the counts alone (no cells built), so a
    /// shard file is checked before anything of its size is expanded.
    public static func realizations(of spec: SweepSpec, in shard: SweepShard.Selection?) -> [Int] {
        let seeds = shard.map { Array(stride(from: $0.index, to: spec.seeds, by: $0.count)) } ?? Array(0..<spec.seeds)
        var out: [Int] = []
        out.reserveCapacity(spec.cellCount * seeds.count)
        for c in 0..<spec.cellCount {
            for s in seeds { out.append(c * spec.seeds + s) }
        }
        return out
    }
}
