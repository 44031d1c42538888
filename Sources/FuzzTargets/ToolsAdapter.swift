import Foundation
import ReflectorFirmware
import ReflectorTools
import ToolJSON
import ToolFiles

/// Every call the fuzz targets make into ReflectorTools, in one file: what only the tool's
/// commands hold (plan's report, nearby's options, sweep's spec, shards and merge). The
/// captures and the files the tool reads are fuzzed on their modules directly (`CaptureCalls`,
/// `FileCalls`). Each function takes the octets a user's file would hold and returns plain
/// values; "refused" is a normal answer (nil or a count), a trap is a finding.
enum ToolsAdapter {
    /// A plan configuration (`plan --config`); when it is accepted, one procedure is planned
    /// with the spec's sample security material, as `plan` prints it.
    static func readPlanConfig(_ bytes: [UInt8]) -> Bool {
        guard let json = FileCalls.parseJSON(bytes), let config = try? PlanConfigFile(json: json) else { return false }
        _ = PlanReport(config: config, security: FileCalls.sampleSecurity, count: 1).table
        return true
    }

    /// A `nearby --scenario FILE` file: the flags it stands for, through `nearby`'s own option
    /// table (the checks the command applies); an accepted scenario is built, without running
    /// it. In memory: reading the file is `JSONFile.read`'s, which every reader shares.
    static func readScenario(_ bytes: [UInt8]) -> Bool {
        guard let flags = try? ScenarioFile.parse(Data(bytes)), let options = try? NearbyOptions(arguments: flags) else { return false }
        _ = options.scenario
        return true
    }

    /// A `sweep SPEC.json` file, through sweep's own converters (`SweepSpecFile`): an accepted
    /// spec within the run limits writes back (the "spec" object of the outputs and shards) to
    /// JSON that reads back as the same spec, and a small one expands into its grid.
    static func readSweepSpec(_ bytes: [UInt8]) -> Bool {
        var spec = SweepSpec()
        guard (try? SweepSpecFile.parse(Data(bytes), into: &spec)) != nil, (try? spec.validate()) != nil else { return false }
        var j = JSONWriter()
        spec.json(&j)
        var again = SweepSpec()
        let reread = (try? SweepSpecFile.apply(JSONValue.parse(bytes: j.bytes), to: &again)) != nil
        require(reread && again == spec, "a sweep spec that does not read back as itself: \(String(decoding: j.bytes, as: UTF8.self))")
        if spec.cellCount <= 1000 { _ = SweepGrid(spec).cells.map(\.key) }
        return true
    }

    /// A `sweep merge` shard file: an accepted shard writes back to a file that reads back bit
    /// for bit (every error and bound a round-trip double), and the shard of a one-shard split merges into
    /// a whole run whose statistics, table, CSV, JSON and chart are made.
    static func readSweepShard(_ bytes: [UInt8]) -> Bool {
        guard let json = FileCalls.parseJSON(bytes), let shard = try? SweepShard(json: json) else { return false }
        var j = JSONWriter()
        shard.json(&j)
        let again = FileCalls.parseJSON(j.bytes).flatMap { try? SweepShard(json: $0) }
        require(again.map { shardBits($0) == shardBits(shard) && $0.spec == shard.spec && $0.selection == shard.selection } ?? false,
                "a sweep shard that does not read back bit for bit")
        if shard.selection.count == 1, shard.spec.cellCount <= 1000, let merged = try? SweepShard.merge([("shard.json", shard)]) {
            let statistics = SweepStatistics(grid: merged.grid, realizations: merged.realizations)
            _ = SweepCommand.outputs(statistics)
            _ = SweepReport.table(statistics)
        }
        return true
    }

    static func shardBits(_ shard: SweepShard) -> [[[UInt64]]] {
        shard.realizations.map { $0.errors.map { $0.map(\.bitPattern) } + [$0.bounds.map(\.bitPattern)] }
    }

    /// Shards of real runs for the seeds: a tiny sweep (two grid points, two estimators, two
    /// seeds of three procedures) whole and split in two, as `sweep --shard` writes them.
    static func sweepShardSeeds() -> [[UInt8]] {
        var spec = SweepSpec()
        spec.distances = [2]
        spec.channels = ["free", "two-ray:0.5-5:0.3-0.9"].compactMap(AirChannelFamily.init)
        spec.estimators = [.kay, .ifft]
        spec.seeds = 2
        spec.procedures = 3
        let grid = SweepGrid(spec)
        return [SweepShard.Selection(index: 0, count: 1)!, SweepShard.Selection(index: 1, count: 2)!].map { selection in
            let realizations = SweepRunner.run(grid, indices: grid.realizations(in: selection), workers: 1)
            var j = JSONWriter()
            SweepShard(spec: spec, selection: selection, realizations: realizations).json(&j)
            return j.bytes
        }
    }


}
