import Foundation
import ToolJSON

/// The options of `reflector-emu sweep`: the spec (the grid, from flags and a spec file) and how
/// this run computes it: workers, an optional shard, where the outputs go. Only the spec decides
/// the numbers; the rest decides where and how fast.
public struct SweepOptions {
    public var spec = SweepSpec()
    /// The spec file given, if any (one at most).
    public var specPath: String?
    /// Realizations computed at once, each on its own thread.
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Run one shard of the realizations and write its raw errors (PREFIX.shard.json).
    public var shard: SweepShard.Selection?
    /// Write PREFIX.csv, PREFIX.json and PREFIX.svg (or, with a shard, PREFIX.shard.json).
    public var outPrefix: String?
    public var progress = true

    public init() {}

    /// The most workers `--workers` takes: threads beyond the cores only wait their turn.
    public static let maximumWorkers = 1024
}

extension OptionValue where T == SweepShard.Selection {
    /// `I/N`, I counted from 0.
    static var shardSelection: OptionValue { OptionValue(allowed: SweepShard.Selection.allowed) { SweepShard.Selection($0) } }
}

extension SweepOptions {
    /// The options `arguments` give, read with `sweep`'s option table (for tests and tools).
    public init(arguments: [String]) throws(ToolError) {
        self = try SweepCommand.options.parse(arguments, command: SweepCommand.name)
    }
}
