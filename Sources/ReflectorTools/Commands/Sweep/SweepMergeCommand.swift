import ToolJSON

/// `reflector-emu sweep merge`: joins the shards of one split (`sweep --shard I/N`, one per
/// job of a batch array) into the outputs a whole run writes, byte for byte: the shards keep
/// every error exactly, and the statistics are computed from them in the same order.
public enum SweepMergeCommand: Command {
    public static let name = "sweep merge"
    public static let summary = ["join the shards of a sweep into its outputs"]

    public static let help = HelpText(
        usage: "usage: reflector-emu sweep merge SHARD.json... [--out PREFIX]",
        about: """
            Reads the shard files of one sweep split into N shards (every PREFIX.shard.json that
            'sweep --shard I/N --out PREFIX' wrote, I from 0 to N-1, in any order) and writes what
            the whole run writes: the table, and with --out PREFIX.csv, PREFIX.json and
            PREFIX.svg. Shards of different specs or splits, a shard given twice and a missing
            shard are refused, naming the files.
            """)

    public struct Options {
        public var shardPaths: [String] = []
        public var outPrefix: String?
        public init() {}
    }

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: [
            .value(\.outPrefix, "--out", "PREFIX", .text, help: "write PREFIX.csv, PREFIX.json and PREFIX.svg"),
        ], positional: Positional("SHARD.json") { o, path throws(ToolError) in
            o.shardPaths.append(path)
        }, helpColumn: 15, messagePrefix: "sweep merge: ", validate: { o throws(ToolError) in
            if o.shardPaths.isEmpty { throw .usage("sweep merge: no shard files; give every PREFIX.shard.json of the run") }
        })
    }

    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        var shards: [(path: String, shard: SweepShard)] = []
        for path in o.shardPaths { shards.append((path, try SweepShard.read(path: path))) }
        let (grid, realizations) = try SweepShard.merge(shards)
        try SweepCommand.finish(SweepStatistics(grid: grid, realizations: realizations), prefix: o.outPrefix, output: output)
        return .success
    }
}
