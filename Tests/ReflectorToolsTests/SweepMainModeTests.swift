import EmulatorMath
import Foundation
@testable import RadioWorld
import RangingEstimation
@testable import ReflectorTools
@testable import ToolJSON
import ReflectorFirmware
import Testing

/// `sweep --main-mode`: round-trip timing (mode 1) and both (mode 3) as a grid axis, RTT's bound
/// beside the `rtt` rows, and the RMSE over the procedures every estimator gave a distance for.
struct SweepMainModeTests {
    static func statistics(_ arguments: [String]) throws -> SweepStatistics {
        let o = try CommandTesting.options(SweepCommand.self, arguments)
        let grid = SweepGrid(o.spec)
        return SweepStatistics(grid: grid, realizations: SweepRunner.run(grid, indices: Array(0..<grid.realizationCount), workers: 2))
    }

    static func message(_ arguments: [String]) -> String? {
        do { _ = try CommandTesting.options(SweepCommand.self, arguments) } catch { return "\(error)" }
        return nil
    }

    /// Mode 2's cells keep the text (so the seeds) they had before sweeps had modes; the others
    /// get their own.
    @Test func modesAreAnAxisAndModeTwoKeepsItsSeeds() throws {
        let o = try CommandTesting.options(SweepCommand.self, ["--distances", "3", "--channels", "free", "--main-mode", "2,1,3", "--estimators", "rtt,ml"])
        let cells = SweepGrid(o.spec).cells
        #expect(cells.map(\.mainMode) == [.mode2, .mode1, .mode3])
        #expect(cells[0].key == "distance 3.0 m, channel free, SNR 20.0 dB, N_AP 1, PCT inline")
        #expect(cells[1].key == "distance 3.0 m, channel free, SNR 20.0 dB, N_AP 1, PCT inline, main mode 1")
        #expect(Set(cells.map { SweepRealization.seed(base: 1, cell: $0, seedIndex: 0) }).count == 3)
        var j = JSONWriter()
        o.spec.json(&j)
        #expect(String(decoding: j.bytes, as: UTF8.self).contains(#""main-mode": [2, 1, 3]"#))
    }

    @Test func refusesWhatCannotGiveADistance() {
        let message = Self.message(["--main-mode", "1", "--estimators", "kay,ml"])
        #expect(message == "sweep: main mode 1 has no tones, so the estimators asked for (kay, ml) give no distance; allowed there: rtt, combined (--estimators rtt)")
        #expect(Self.message(["--main-mode", "4"])?.contains("--main-mode must be a comma-separated list of distinct main modes") == true)
        #expect(Self.message(["--main-mode", "1,1"]) != nil)
    }

    /// Mode 1 in free space at 20 dB: every procedure timed, RTT's RMSE within 0.7–1.3 × its
    /// bound (the bound the rows carry is RTT's, not the phase CRLB), no bias beyond the bound,
    /// and the phase-based estimator has nothing to work on.
    @Test func roundTripTimingInFreeSpaceSitsAtItsBound() throws {
        let s = try Self.statistics(["--distances", "2,8", "--channels", "free", "--main-mode", "1", "--estimators", "rtt,ml",
                                     "--seeds", "8", "--procedures", "10"])
        for row in s.rows where row.estimator == .rtt {
            #expect(row.estimated == 80)
            let bound = try #require(SweepStatistics.rttBound(of: s.rttBounds[row.cell]))
            #expect(row.crlb == bound && (0.15...0.3).contains(bound), "RTT bound \(bound)")
            let ratio = try #require(row.rmseOverCRLB)
            #expect((0.7...1.3).contains(ratio), "RMSE \(row.rmse!) = \(ratio) × RTT's bound \(bound)")
            #expect(abs(row.bias!) < bound)
        }
        for row in s.rows where row.estimator == .ml { #expect(row.estimated == 0) }
        // ml gave nothing, so no procedure has both.
        #expect(s.rows.allSatisfy { $0.commonRMSE == nil } == true)
    }

    /// Mode 3: the combined estimate is the phase fit's where the phase fit has one (free space:
    /// identical, far below RTT), and the timing's where it has none; over the procedures both
    /// have, it is at least as good as the phase fit.
    @Test func combinedTakesThePhaseFitAndCoversWhatItRefuses() throws {
        let s = try Self.statistics(["--distances", "3,9", "--channels", "free,tgn-b", "--snr", "12", "--main-mode", "3",
                                     "--estimators", "ml,rtt,combined", "--seeds", "4", "--procedures", "10"])
        for cell in s.grid.cells.indices {
            let rows = s.rows.filter { $0.cell == cell }
            let (ml, rtt, combined) = (rows[0], rows[1], rows[2])
            #expect(rtt.estimated == 40 && combined.estimated == 40)
            let commonML = try #require(ml.commonRMSE), commonCombined = try #require(combined.commonRMSE)
            #expect(commonCombined <= commonML * 1.02, "\(s.grid.cells[cell].key): combined \(commonCombined) against ml \(commonML)")
            if s.grid.cells[cell].channel.name == "free" {
                #expect(ml.estimated == 40 && combined.rmse == ml.rmse && ml.rmse! < rtt.rmse! / 5)
            }
        }
    }

    /// Shards keep the RTT bounds, and a shard of a mode-2 sweep is written as before (no
    /// `rtt_bounds`).
    @Test func shardsKeepTheRoundTripBounds() throws {
        var spec = SweepSpec()
        (spec.distances, spec.channels, spec.estimators, spec.seeds, spec.procedures, spec.mainModes) = ([2], [AirChannelFamily("free")!], [.rtt], 1, 3, [.mode1])
        let r = SweepRealization(index: 0, errors: [[0.1, .nan, -0.2]], bounds: [.nan, .nan, .nan], rttBounds: [0.21, .nan, 0.2 + 0.1])
        let shard = SweepShard(spec: spec, selection: SweepShard.Selection("0/1")!, realizations: [r])
        var j = JSONWriter()
        shard.json(&j)
        let text = String(decoding: j.bytes, as: UTF8.self)
        #expect(text.contains(#""rtt_bounds": [0.21, null, 0.30000000000000004]"#))
        #expect(try SweepShard(json: JSONValue.parse(bytes: j.bytes)) == shard)
        var plain = SweepShard(spec: spec, selection: shard.selection, realizations: [SweepRealization(index: 0, errors: [[0.1, .nan, -0.2]], bounds: [.nan, .nan, .nan])])
        j = JSONWriter()
        plain.json(&j)
        #expect(!String(decoding: j.bytes, as: UTF8.self).contains("rtt_bounds"))
        plain = try SweepShard(json: JSONValue.parse(bytes: j.bytes))
        #expect(plain.realizations[0].rttBounds.allSatisfy { $0.isNaN })
        let bad = text.replacingOccurrences(of: #""rtt_bounds": [0.21, null, 0.30000000000000004]"#, with: #""rtt_bounds": [0.21, -1, 0.3]"#)
        do {
            _ = try SweepShard(json: JSONValue.parse(bytes: Array(bad.utf8)))
            Issue.record("a negative σ was read")
        } catch {
            #expect(error.description.contains("realizations[0].rtt_bounds") && error.description.contains("holds -1"))
        }
    }

    @Test func commonRMSEIsOverTheProceduresEveryEstimatorHas() {
        let common = SweepStatistics.common([[0.1, .nan, 0.3, 0.4], [0.2, 0.5, .nan, 0.1]])
        #expect(common == [true, false, false, true])
        let row = SweepCellStatistics(cell: 0, estimator: .rtt, errors: [0.2, 0.5, .nan, 0.1], crlb: 1, common: common)
        #expect(abs(row.commonRMSE! - ((0.04 + 0.01) / 2).squareRoot()) < 1e-15)
        #expect(SweepStatistics.common([[0.1]]) == nil)
        // P90 with misses unbounded: of 10 procedures, h = 8.1, between the 9th and 10th values.
        let tenth = SweepCellStatistics(cell: 0, estimator: .ml, errors: (1...9).map(Double.init) + [.nan], crlb: 1)
        #expect(tenth.p90OfAll == nil && tenth.p90 == Quantile.of((1...9).map(Double.init), 0.9))
        let all = SweepCellStatistics(cell: 0, estimator: .ml, errors: (1...10).map { -Double($0) }, crlb: 1)
        #expect(all.p90OfAll == all.p90 && abs(all.p90OfAll! - 9.1) < 1e-12)
        // 11 procedures, one missing: h = 9 falls on the 10th value.
        #expect(SweepCellStatistics.p90((1...10).map(Double.init), missing: 1) == 10)
        #expect(SweepStatistics.rttBound(of: [.nan, 3, 4]) == (12.5).squareRoot() && SweepStatistics.rttBound(of: [.nan]) == nil)
    }
}
