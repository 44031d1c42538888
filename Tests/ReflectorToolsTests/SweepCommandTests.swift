import EmulatorMath
import Foundation
@testable import RadioWorld
import RangingEstimation
@testable import ReflectorTools
@testable import ToolJSON
@testable import CaptureEstimation
import TestSupport
import Testing

/// `reflector-emu sweep` and `sweep merge`: outputs that do not depend on the workers or the
/// split into shards, merges that refuse what is not one run, spec files checked key by key,
/// and numbers that sit where the bound says they should.
struct SweepCommandTests {
    /// This test's files, removed when it ends.
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("sweep") }

    /// A small grid that still has every kind of axis: two distances, a fixed channel and a
    /// two-ray family, both PCT transfers, two estimators; 3 seeds of 3 procedures.
    static let grid = ["--distances", "1,4", "--channels", "free,two-ray:0.5-5:0.3-0.9", "--pct", "inline,ras", "--estimators", "kay,ml",
                       "--seeds", "3", "--procedures", "3", "--no-progress"]

    /// Runs `sweep` (or `sweep merge`) in process; returns stdout.
    static func run(_ arguments: [String], merge: Bool = false) throws -> String {
        let r = try merge ? SweepMergeCommand.run(arguments) : SweepCommand.run(arguments)
        #expect(r.status == 0)
        return r.output
    }

    static func message(_ arguments: [String], merge: Bool = false) -> String? {
        do { _ = try merge ? SweepMergeCommand.run(arguments) : SweepCommand.run(arguments) } catch { return error.description }
        return nil
    }

    /// The three files of `--out PREFIX`.
    static func files(_ prefix: String) throws -> [Data] {
        try [".csv", ".json", ".svg"].map { try Data(contentsOf: URL(fileURLWithPath: prefix + $0)) }
    }

    @Test func oneWorkerAndThreeWorkersWriteTheSameBytes() throws {
        let one = dir.file("one"), three = dir.file("three")
        let textOne = try Self.run(Self.grid + ["--workers", "1", "--out", one])
        let textThree = try Self.run(Self.grid + ["--workers", "3", "--out", three])
        #expect(try Self.files(one) == Self.files(three))
        #expect(textOne.replacingOccurrences(of: one, with: "P") == textThree.replacingOccurrences(of: three, with: "P"))
        // 2 distances × 2 channels × 2 PCT = 8 grid points, 2 estimators: 16 rows under a header.
        let csv = String(decoding: try Self.files(one)[0], as: UTF8.self).split(separator: "\n")
        #expect(csv.count == 17 && csv[0].hasPrefix("distance_m,channel,snr_db,antenna_paths,pct,main_mode,estimator,procedures,estimated"))
        #expect(csv[1].hasPrefix("1,free,20,1,inline,2,kay,9,"))
        #expect(csv[16].hasPrefix("4,two-ray:0.5-5:0.3-0.9,20,1,ras,2,ml,9,"))
    }

    @Test func mergedShardsAreTheWholeRunByteForByte() throws {
        let whole = dir.file("whole"), merged = dir.file("merged")
        let wholeText = try Self.run(Self.grid + ["--out", whole])
        for i in 0..<2 {
            let shardText = try Self.run(Self.grid + ["--shard", "\(i)/2", "--out", dir.file("part-\(i)")])
            // Seed indices 0 and 2 in shard 0, 1 in shard 1, for each of the 8 grid points.
            #expect(shardText.contains("shard \(i)/2: \(i == 0 ? 16 : 8) of 24 realizations"))
        }
        // In any order.
        let mergedText = try Self.run([dir.file("part-1.shard.json"), dir.file("part-0.shard.json"), "--out", merged], merge: true)
        #expect(try Self.files(whole) == Self.files(merged))
        #expect(wholeText.replacingOccurrences(of: whole, with: "P") == mergedText.replacingOccurrences(of: merged, with: "P"))
    }

    @Test func mergeRefusesMissingRepeatedAndForeignShards() throws {
        for i in 0..<3 { _ = try Self.run(Self.grid + ["--shard", "\(i)/3", "--out", dir.file("a\(i)")]) }
        _ = try Self.run(Self.grid + ["--shard", "0/2", "--out", dir.file("b0")])
        _ = try Self.run(Self.grid + ["--seeds", "4", "--shard", "1/3", "--out", dir.file("c1")])
        let a = (0..<3).map { dir.file("a\($0).shard.json") }
        #expect(Self.message([a[0], a[2]], merge: true)
            == "sweep merge: 1 of 3 shards missing (1/3); allowed: every shard of the split, 0/3 to 2/3")
        #expect(Self.message([a[0], a[1], a[1], a[2]], merge: true) == "sweep merge: \(a[1]) and \(a[1]) are both shard 1/3; allowed: each shard once")
        #expect(Self.message([a[0], a[1], a[2], dir.file("b0.shard.json")], merge: true)
            == "sweep merge: \(dir.file("b0.shard.json")) is shard 0/2 but \(a[0]) is shard 0/3: shards of different splits overlap or leave gaps; allowed: the shards of one --shard I/3 split")
        #expect(Self.message([a[0], dir.file("c1.shard.json"), a[2]], merge: true)
            == "sweep merge: \(dir.file("c1.shard.json")) is a shard of a different sweep than \(a[0]) (their specs differ in \"seeds\"); allowed: the shards of one run")
        #expect(Self.message([dir.file("nowhere.shard.json")], merge: true) == "\(dir.file("nowhere.shard.json")): cannot read the file")
        #expect(Self.message([], merge: true) == "sweep merge: no shard files; give every PREFIX.shard.json of the run")
    }

    /// A shard keeps every error and bound bit for bit: the shortest round-trip form, null for none.
    @Test func shardFilesKeepEveryBit() throws {
        var spec = SweepSpec()
        (spec.distances, spec.channels, spec.estimators, spec.seeds, spec.procedures) = ([2], [AirChannelFamily("free")!], [.kay, .ifft], 2, 4)
        let awkward: [[Double]] = [[0.1 + 0.2, -0.0, .leastNonzeroMagnitude, .nan], [1e-300, -123456.789e10, Double.ulpOfOne, 1 / 3]]
        let bounds = [0.1 + 0.2, .nan, .leastNonzeroMagnitude, 1 / 3]
        let shard = SweepShard(spec: spec, selection: SweepShard.Selection("1/2")!, realizations: [SweepRealization(index: 1, errors: awkward, bounds: bounds)])
        var j = JSONWriter()
        shard.json(&j)
        let back = try SweepShard(json: JSONValue.parse(bytes: j.bytes))
        #expect(back.spec == spec && back.selection == shard.selection && back.realizations.map(\.index) == [1])
        #expect(back.realizations[0].errors.map { $0.map(\.bitPattern) } == awkward.map { $0.map(\.bitPattern) })
        #expect(back.realizations[0].bounds.map(\.bitPattern) == bounds.map(\.bitPattern))
        #expect(back == shard)
    }

    @Test func shardFilesAreCheckedKeyByKey() throws {
        let spec = #"{"distances": [2], "channels": ["free"], "estimators": ["kay"], "seeds": 2, "procedures": 2}"#
        func message(_ body: String) -> String? {
            do { _ = try SweepShard(json: JSONValue.parse(bytes: Array(body.utf8))) } catch { return error.description }
            return nil
        }
        let good = #"{"format": "reflector-emu sweep shard 2", "spec": \#(spec), "shard": "0/2", "realizations": [{"index": 0, "errors": [[0.01, null]], "bounds": [0.05, null]}]}"#
        #expect(message(good) == nil)
        #expect(message(good.replacingOccurrences(of: "shard 2\"", with: "shard 1\""))
            == #"key "format" is "reflector-emu sweep shard 1", a shard of an earlier reflector-emu (its channels were drawn once per realization, and it has no two-path bounds); allowed: "reflector-emu sweep shard 2": run that shard again"#)
        #expect(message(good.replacingOccurrences(of: "[0.05, null]", with: "[-0.05, null]"))
            == "key \"realizations[0].bounds\" holds -0.05; allowed: 2 numbers (σ in metres, not negative) or nulls")
        #expect(message(good.replacingOccurrences(of: "[0.05, null]", with: "[0.05]"))
            == "key \"realizations[0].bounds\" is an array; allowed: 2 numbers (σ in metres, not negative) or nulls")
        #expect(message(good.replacingOccurrences(of: #", "bounds": [0.05, null]"#, with: ""))
            == #"key "realizations[0]" is an object; allowed: {"index": N, "errors": [...], "bounds": [...]}, and "rtt_bounds": [...] where round trips were timed"#)
        #expect(message(good.replacingOccurrences(of: "shard 2\"", with: "shard 3\"")) == #"key "format" is "reflector-emu sweep shard 3"; allowed: one of "reflector-emu sweep shard 2""#)
        #expect(message(good.replacingOccurrences(of: #""0/2""#, with: #""2/2""#))
            == "key \"shard\" is \"2/2\"; allowed: a string \(SweepShard.Selection.allowed)")
        #expect(message(good.replacingOccurrences(of: #""index": 0"#, with: #""index": 1"#))
            == "key \"realizations[0].index\" is 1; allowed: 0, the next realization of this shard")
        #expect(message(good.replacingOccurrences(of: "[[0.01, null]]", with: "[[0.01]]"))
            == "key \"realizations[0].errors\" holds an array of the wrong length; allowed: 1 arrays (one per estimator) of 2 numbers or nulls")
        #expect(message(good.replacingOccurrences(of: "null]]", with: "\"x\"]]"))
            == "key \"realizations[0].errors\" holds \"x\"; allowed: 1 arrays (one per estimator) of 2 numbers or nulls")
        #expect(message(good.replacingOccurrences(of: #""seeds": 2"#, with: #""seeds": 0"#)) == "key \"spec.seeds\" is 0; allowed: an integer from 1 to 100000")
        #expect(message(good.replacingOccurrences(of: #"{"index": 0, "errors": [[0.01, null]], "bounds": [0.05, null]}"#, with: ""))
            == "key \"realizations\" holds 0 realizations; allowed: the 1 of shard 0/2 of this spec")
    }

    @Test func specFilesAreCheckedKeyByKeyAndFlagsAfterThemWin() throws {
        let path = try dir.write(#"{"distances": "1:3:1", "channels": ["free", "tgn-d"], "snr": 25, "antenna-paths": [1, 4], "seeds": 7, "seed": 1e3}"#,
                                 name: "spec.json")
        let o = try CommandTesting.options(SweepCommand.self, ["--seeds", "2", path, "--snr", "15,30"])
        #expect(o.spec.distances == [1, 2, 3] && o.spec.channels.map(\.name) == ["free", "tgn-d"] && o.spec.antennaPaths == [1, 4])
        #expect(o.spec.seeds == 7, "the file overrides flags before it")
        #expect(o.spec.snrs == [15, 30], "flags after the file override it")
        #expect(o.spec.seed == 1000 && o.spec.estimators == EstimatorChoice.phaseBased && o.spec.procedures == 20)

        func message(_ json: String) throws -> String? {
            let p = try dir.write(json, name: "bad-\(UUID().uuidString).json")
            do { _ = try SweepCommand.parse([p]) } catch { return error.description.replacingOccurrences(of: p, with: "FILE") }
            return nil
        }
        #expect(try message(#"{"snr": [15, 200]}"#)
            == #"FILE: key "snr" is [15, 200]; allowed: a comma-separated list of distinct numbers from -10 to 80 dB (or a JSON array of them)"#)
        #expect(try message(#"{"workers": 2}"#)
            == #"FILE: key "workers" is not a sweep key; allowed: distances, channels, snr, antenna-paths, pct, main-mode, estimators, seeds, procedures, seed"#)
        #expect(try message(#"{"seeds": 9223372036854775808}"#) == #"FILE: key "seeds" is 9223372036854775808; allowed: an integer from 1 to 100000"#)
        #expect(try message(#"{"seeds": [3]}"#) == #"FILE: key "seeds" is [3]; allowed: an integer from 1 to 100000"#)
        #expect(try message(#"{"channels": ["free,light"]}"#)?.hasPrefix(#"FILE: key "channels" is ["free,light"]; allowed: a comma-separated list of distinct channel models"#) == true)
        #expect(try message(#"{"pct": [["inline"]]}"#) == #"FILE: key "pct" is [an array]; allowed: a comma-separated list of inline, ras (or a JSON array of them)"#)
        #expect(try message(#"{"estimators": []}"#)?.hasPrefix(#"FILE: key "estimators" is []; allowed: "#) == true)
        #expect(try message(#"[1]"#) == "FILE: the top level must be a JSON object, found an array")
        #expect(try message(#"{"seeds": 100000, "procedures": 100000}"#)?.hasPrefix("sweep: the grid asks for") == true)
        #expect(Self.message([path, path]) == "sweep: one spec file at most, found '\(path)' and '\(path)'")
    }

    /// The example spec is a valid spec.
    @Test func theExampleSpecReads() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/sweep.json").path
        let o = try CommandTesting.options(SweepCommand.self, [example])
        #expect(o.spec.cellCount > 1 && o.spec.channels.contains { if case .twoRay = $0.kind { true } else { false } })
    }

    @Test func flagsSayWhatIsAllowed() {
        #expect(Self.message(["--shard", "1/3"]) == "sweep: --shard needs --out PREFIX (the shard is written to PREFIX.shard.json)")
        #expect(Self.message(["--shard", "3/3", "--out", "x"])
            == "--shard must be I/N, a shard index I from 0 to N-1 (counted from 0, as SLURM_ARRAY_TASK_ID is) of N from 1 to 100000, found '3/3'")
        #expect(Self.message(["--distances", "1,1"])
            == "--distances must be a comma-separated list of distinct distances from 0.1 to 149 m, or START:STOP:STEP (at most 1000 values), found '1,1'")
        #expect(Self.message(["--workers", "0"]) == "--workers must be an integer from 1 to 1024, found '0'")
        #expect(Self.message(["--procedures", "9223372036854775808"]) == "--procedures must be an integer from 1 to 100000, found '9223372036854775808'")
        #expect(Self.message(["--seeds", "100000", "--procedures", "100000", "--distances", "1", "--channels", "free"])
            == "sweep: the grid asks for 50000000000 estimates (1 grid point × 100000 seeds × 100000 procedures × 5 estimators); allowed: at most 50000000 (fewer seeds, procedures or grid values)")
    }

    @Test func distanceRangesAndLists() {
        let d = OptionValue<[Double]>.distances
        #expect(d.convert("1:30:5") == [1, 6, 11, 16, 21, 26])
        #expect(d.convert("0.5:1:0.1") == [0.5, 0.6, 0.7, 0.8, 0.9, 1.0])
        // A fuzz finding: ".1" was read as no decimals, so 0.1 rounded to 0, below the range.
        #expect(d.convert(".1:30:5") == [0.1, 5.1, 10.1, 15.1, 20.1, 25.1])
        #expect(d.convert("2:2:1") == [2])
        #expect(d.convert("0.5,1,3,10") == [0.5, 1, 3, 10])
        for bad in ["3:1:1", "1:2:0", "1:2:-1", "0:2:1", "1:200:1", "1:2", "1:2:1e-1", "1,,2", "", "0.1:149:0.1"] { #expect(d.convert(bad) == nil, "\(bad)") }
    }

    @Test func twoRayFamiliesDrawWithinTheirRanges() throws {
        let family = try #require(AirChannelFamily("two-ray:0.5-5:0.3-0.9"))
        var excesses: Set<Double> = []
        for seed in UInt64(0)..<200 {
            guard case let .twoRay(x, a, phase) = family.model(seed: seed) else { Issue.record("not two-ray"); return }
            #expect((0.5...5).contains(x) && (0.3...0.9).contains(a) && phase == nil)
            #expect(family.model(seed: seed) == .twoRay(excessPath: x, amplitude: a, phase: nil), "the same seed draws the same member")
            excesses.insert(x)
        }
        #expect(excesses.count == 200)
        #expect(AirChannelFamily("two-ray:1e-3-2:0.5")?.kind == .twoRay(excess: 0.001...2, amplitude: 0.5...0.5))
        #expect(AirChannelFamily("light")?.kind == .fixed(.twoRay(excessPath: 1.5, amplitude: 0.3, phase: nil)))
        #expect(AirChannelFamily("two-ray:3:0.7")?.kind == .fixed(.twoRay(excessPath: 3, amplitude: 0.7, phase: nil)))
        for bad in ["two-ray:5-0.5:0.3", "two-ray:0-1:0.3", "two-ray:1-101:0.3", "two-ray:1-2:0.3-1.1", "two-ray:1-2", "two-ray:1--2:0.3", "two-ray:1-2:nan", "tgn-f"] {
            #expect(AirChannelFamily(bad) == nil, "\(bad)")
        }
    }

    /// Statistics from known errors, computed by hand: NaN is a procedure without a distance.
    @Test func statisticsOfKnownErrors() {
        let s = SweepCellStatistics(cell: 0, estimator: .kay, errors: [0.1, -0.2, .nan, 0.3, -0.4], crlb: 0.1, boundP90: SweepStatistics.boundP90(of: [0.2, 0.2, .nan, 0.2, 0.2]))
        #expect(s.procedures == 5 && s.estimated == 4 && s.fractionEstimated == 0.8)
        #expect(abs(s.bias! - (-0.05)) < 1e-15)
        #expect(abs(s.rmse! - (0.3 / 4).squareRoot()) < 1e-15)
        // |error| sorted 0.1 0.2 0.3 0.4: P50 0.25, P90 at h = 2.7 → 0.37, P99 at h = 2.97 → 0.397.
        #expect(abs(s.p50! - 0.25) < 1e-15 && abs(s.p90! - 0.37) < 1e-12 && abs(s.p99! - 0.397) < 1e-12)
        #expect(abs(s.rmseOverCRLB! - (0.3 / 4).squareRoot() / 0.1) < 1e-12)
        // One σ of 0.2 m: the P90 of |N(0, σ²)| is 1.644854σ (the normal's 95th percentile).
        #expect(abs(s.boundP90! - 0.2 * 1.6448536) < 1e-6 && abs(s.p90OverBound! - 0.37 / (0.2 * 1.6448536)) < 1e-5)
        let none = SweepCellStatistics(cell: 0, estimator: .kay, errors: [.nan, .nan], crlb: 0.1, boundP90: SweepStatistics.boundP90(of: [.nan, .nan]))
        #expect(none.estimated == 0 && none.rmse == nil && none.bias == nil && none.p99 == nil && none.rmseOverCRLB == nil)
        #expect(none.boundP90 == nil && none.p90OverBound == nil)
        // Many bounds: the mixture over 4,096 of their order statistics is within 0.1 % of the whole.
        var g = SeededGenerator(seed: 5)
        let many = (0..<20_000).map { _ in 0.02 + 0.3 * g.uniform() }
        let whole = TwoPathBound.quantile(0.9, ofAbsoluteErrorsWith: many)
        #expect(abs(SweepStatistics.boundP90(of: many)! / whole - 1) < 1e-3)
        // N_AP 4 halves the bound.
        #expect(abs(SweepStatistics.crlb(snrDB: 20, antennaPaths: 4) * 2 - SweepStatistics.crlb(snrDB: 20, antennaPaths: 1)) < 1e-15)
    }

    /// A channel's pooled row is the statistics of all its grid points' errors together, its
    /// bound the root mean square of theirs (two SNRs here, so the bounds differ).
    @Test func pooledRowsJoinEveryGridPointOfAChannel() throws {
        let o = try CommandTesting.options(SweepCommand.self, ["--distances", "2,5", "--channels", "free,light", "--snr", "15,25",
                                                               "--estimators", "kay,ml", "--seeds", "2", "--procedures", "2"])
        let grid = SweepGrid(o.spec)
        let s = SweepStatistics(grid: grid, realizations: (0..<grid.realizationCount).map { SweepRealization.simulate(grid, index: $0) })
        let pooled = s.pooledRows
        #expect(pooled.count == 4 && pooled.map(\.cell) == [0, 0, 1, 1] && pooled.map(\.estimator) == [.kay, .ml, .kay, .ml])
        let lightCells = grid.cells.indices.filter { grid.cells[$0].channel == o.spec.channels[1] }
        #expect(lightCells.count == 4)
        let errors = lightCells.flatMap { s.errors[$0][1] }
        let bounds = lightCells.map { SweepStatistics.crlb(snrDB: grid.cells[$0].snrDB, antennaPaths: 1) }
        let sigmas = lightCells.flatMap { s.bounds[$0] }
        let expected = SweepCellStatistics(cell: 1, estimator: .ml, errors: errors, crlb: (bounds.map { $0 * $0 }.reduce(0, +) / 4).squareRoot(),
                                           boundP90: SweepStatistics.boundP90(of: sigmas),
                                           common: SweepStatistics.common([lightCells.flatMap { s.errors[$0][0] }, errors]))
        #expect(pooled[3] == expected && pooled[3].procedures == 16)
        // Light multipath has a two-path bound at every procedure's channel, free space none.
        #expect(sigmas.count == 16 && sigmas.allSatisfy { $0.isFinite && $0 > 0 } && pooled[3].boundP90 != nil)
        #expect(pooled[0].boundP90 == nil && pooled[0].p90OverBound == nil)
        #expect(SweepReport.table(s).contains("pooled over distances, SNRs, N_AP and PCT transfers:"))
    }

    /// A grid point's realizations come from its own text and seed index: the same numbers in
    /// a grid of one point and in a larger grid, wherever the point stands.
    @Test func aGridPointGivesTheSameNumbersInAnyGrid() throws {
        let small = try CommandTesting.options(SweepCommand.self, ["--distances", "4", "--channels", "light", "--estimators", "kay", "--seeds", "2", "--procedures", "2"])
        let large = try CommandTesting.options(SweepCommand.self, ["--distances", "1,4", "--channels", "free,light", "--estimators", "kay", "--seeds", "2", "--procedures", "2"])
        let a = SweepGrid(small.spec), b = SweepGrid(large.spec)
        let cell = try #require(b.cells.firstIndex(of: a.cells[0]))
        #expect(cell == 3)
        for s in 0..<2 {
            #expect(SweepRealization.simulate(a, index: a.index(cell: 0, seed: s)).errors == SweepRealization.simulate(b, index: b.index(cell: cell, seed: s)).errors)
        }
        #expect(SweepRealization.simulate(a, index: 0).errors != SweepRealization.simulate(a, index: 1).errors)
    }

    /// Free space at 20 dB: every procedure gives a distance and phase slope's RMSE is within
    /// 0.7-1.5 × the two-sided bound (1.29 cm), at two distances and both PCT transfers. (N_AP 4
    /// is left out: every estimator stays near 1.1 cm there, 1.7 × its bound of σ/√4, so
    /// something the paths share, not the noise, limits it; the sweep's table shows it.)
    @Test func freeSpaceAtTwentyDecibelsSitsAtTheBound() throws {
        let o = try CommandTesting.options(SweepCommand.self, ["--distances", "2,7", "--channels", "free", "--pct", "inline,ras",
                                                               "--estimators", "kay", "--seeds", "6", "--procedures", "10"])
        let grid = SweepGrid(o.spec)
        let s = SweepStatistics(grid: grid, realizations: SweepRunner.run(grid, indices: Array(0..<grid.realizationCount), workers: 2))
        #expect(s.rows.count == 4)
        for row in s.rows {
            let cell = grid.cells[row.cell]
            #expect(row.estimated == 60 && row.fractionEstimated == 1)
            #expect(row.crlb == SweepStatistics.crlb(snrDB: 20, antennaPaths: 1) && abs(row.crlb - 0.0129) < 0.0001)
            let ratio = try #require(row.rmseOverCRLB)
            #expect((0.7...1.5).contains(ratio), "\(cell.key): RMSE \(row.rmse!) = \(ratio) × the bound \(row.crlb)")
            #expect(row.p50! < row.p90! && row.p90! <= row.p99!)
            // No offset of centimetres (a realization's procedures share its oscillators, so the
            // mean of 60 errors varies more than σ/√60 would say).
            #expect(abs(row.bias!) < row.crlb, "\(cell.key): bias \(row.bias!)")
        }
        let table = SweepReport.table(s)
        #expect(table.hasPrefix("reflector-emu sweep: 4 grid points (2 distances × 1 channel × 1 SNR × 1 N_AP × 2 PCT transfers × 1 main mode), 1 estimator, 6 seeds × 10 procedures per grid point, seed 1\n"))
        // The header, the column names, 4 rows, then the pooled block: its title, column names and 1 row.
        #expect(table.split(separator: "\n").count == 9)
    }

    /// The chart: one panel per channel, a curve per estimator that gave distances.
    @Test func theChartHasAPanelPerChannel() throws {
        let prefix = dir.file("chart")
        _ = try Self.run(Self.grid + ["--out", prefix])
        let svg = String(decoding: try Self.files(prefix)[2], as: UTF8.self)
        #expect(svg.components(separatedBy: "<g transform=\"translate(0,").count - 1 == 2)
        #expect(svg.contains("free: CDF of |error|, 36 procedures per estimator"))
        #expect(svg.contains("two-ray:0.5-5:0.3-0.9: CDF of |error|, 36 procedures per estimator"))
        #expect(svg.contains(">kay</text>") && svg.contains(">ml</text>"))
    }
}
