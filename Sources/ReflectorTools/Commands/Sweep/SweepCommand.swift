import Foundation
import ToolJSON

/// `reflector-emu sweep`: the accuracy of the distance estimators over a grid of conditions.
/// Every grid point (distance, channel model, SNR, N_AP, PCT transfer, main mode) gets `--seeds` seeded
/// loopback simulations of `--procedures` procedures each, every estimator runs on the same
/// tones, and each row of the outputs is one point and one estimator: RMSE, bias, P50/P90/P99 of
/// |error|, the fraction of procedures with a distance, and the RMSE over the Cramér–Rao bound.
/// The realizations run in parallel (`SweepRunner`), or one shard of them per job
/// (`--shard I/N`, merged by `sweep merge`); the numbers are the same either way.
public enum SweepCommand: Command {
    public static let name = "sweep"
    public static let summary = ["accuracy of every distance estimator over a grid of distances, channels,",
                                 "SNRs, N_AP and PCT transfer (CSV, JSON, error CDFs); 'sweep merge' joins shards"]

    public static let help = HelpText(
        usage: "usage: reflector-emu sweep [SPEC.json] [options]\n       reflector-emu sweep merge SHARD.json... [--out PREFIX]",
        about: """
            Runs the loopback simulation over a grid of distances × channel models × SNRs × antenna
            paths × PCT transfer × main modes, --seeds seeded realizations of --procedures procedures per grid
            point, and every estimator on the same tones of each procedure. Prints a row per grid
            point and estimator: procedures with a distance, RMSE, bias (mean error), P50, P90 and
            P99 of |error| (interpolated), the Cramér-Rao bound and the RMSE over it. SPEC.json
            holds the grid flags as keys without the dashes ({"distances": [1, 3], "snr": [15,
            20]}); flags after it override it. The realizations run on --workers threads; the
            outputs do not depend on the workers, nor on a split into shards.
            """,
        notes: """
            Shards: --shard I/N runs the realizations whose seed index is I modulo N (I from 0, as
            Slurm's SLURM_ARRAY_TASK_ID counts) and writes their raw errors to PREFIX.shard.json;
            'reflector-emu sweep merge PREFIX-*.shard.json --out PREFIX' joins the N shards into
            exactly the outputs one whole run writes.
            """)

    public static var subcommands: [any Command.Type] { [SweepMergeCommand.self] }

    public static var options: OptionTable<SweepOptions> {
        let grid: [Option<SweepOptions>] = SweepSpec.fields.map { field in
            Option(names: [field.flag], label: "\(field.flag) \(field.metavar)", help: field.help,
                   action: .value(allowed: field.allowed) { o, text throws(OptionFailure) in
                       guard field.set(&o.spec, text) else { throw .notAllowed(field.allowed) }
                   })
        }
        return OptionTable(defaults: SweepOptions(), options: grid + [
            .value(\.workers, "--workers", "N", .integer(1...SweepOptions.maximumWorkers),
                   help: "realizations computed in parallel (default: the active processors);", "the outputs are the same for any N"),
            .value(\.shard, "--shard", "I/N", .shardSelection, help: "run shard I of N (I from 0) and write PREFIX.shard.json for", "'sweep merge'"),
            .value(\.outPrefix, "--out", "PREFIX", .text, help: "write PREFIX.csv, PREFIX.json and PREFIX.svg (error CDFs, a panel", "per channel)"),
            .flag(\.progress, "--no-progress", to: false, help: "no progress bar on stderr"),
        ], positional: Positional("SPEC.json") { o, path throws(ToolError) in
            if let first = o.specPath { throw .usage("sweep: one spec file at most, found '\(first)' and '\(path)'") }
            o.specPath = path
            try SweepSpecFile.read(path: path, into: &o.spec)
        }, helpColumn: 22, validate: { o throws(ToolError) in
            try o.spec.validate()
            if o.shard != nil, o.outPrefix == nil { throw .usage("sweep: --shard needs --out PREFIX (the shard is written to PREFIX.shard.json)") }
        })
    }

    public static func run(_ o: SweepOptions, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        let grid = SweepGrid(o.spec)
        let indices = grid.realizations(in: o.shard)
        let bar = SharedProgressBar(total: o.progress ? indices.count : 0)
        let realizations = SweepRunner.run(grid, indices: indices, workers: o.workers, progress: { bar.update($0) })
        if let shard = o.shard, let prefix = o.outPrefix {
            let path = prefix + ".shard.json"
            var j = JSONWriter()
            SweepShard(spec: o.spec, selection: shard, realizations: realizations).json(&j)
            try OutputFile.write(j.bytes, to: path)
            output.line(SweepReport.header(o.spec))
            output.line("shard \(shard): \(indices.count) of \(grid.realizationCount) realizations (seed index \(shard.index) modulo \(shard.count)), written to \(path)")
            return .success
        }
        try finish(SweepStatistics(grid: grid, realizations: realizations), prefix: o.outPrefix, output: output)
        return .success
    }

    /// What a whole run and a merge both end with: the files (with a prefix), then the table.
    static func finish(_ s: SweepStatistics, prefix: String?, output: CommandOutput) throws(ToolError) {
        let files = outputs(s)
        if let prefix {
            for (suffix, text) in files { try OutputFile.write(text, to: prefix + suffix) }
        }
        output.write(SweepReport.table(s))
        if let prefix { output.line("wrote " + files.map { prefix + $0.suffix }.joined(separator: ", ")) }
    }

    /// The files of `--out PREFIX`: each one's suffix and text, from the statistics alone.
    public static func outputs(_ s: SweepStatistics) -> [(suffix: String, text: String)] {
        var j = JSONWriter()
        SweepReport.json(s, &j)
        return [(".csv", SweepReport.csv(s)), (".json", String(decoding: j.bytes, as: UTF8.self)), (".svg", SweepChart.svg(s))]
    }
}

/// A progress bar the runner's collecting task updates (one update at a time, never two at once).
private final class SharedProgressBar: @unchecked Sendable {
    private var bar: ProgressBar
    init(total: Int) { bar = ProgressBar(total: total) }
    func update(_ done: Int) { bar.update(done) }
}
