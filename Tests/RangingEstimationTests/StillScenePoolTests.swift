import EmulatorMath
import Foundation
@testable import RangingEstimation
import Testing

/// The still scene's pool: its mean has K times the SNR, so the fit of K procedures of the
/// `light` channel is at the two-path bound over √K; it takes a still scene's procedures at
/// its false-alarm rate, follows a half-metre step within two procedures, and drops a single
/// outlier without leaving the scene.
@Suite struct StillScenePoolTests {
    typealias Ray = ToneSimulator.Ray

    static func light(_ d: Double, phase: Double) -> [Ray] {
        [Ray(distance: d, amplitude: .one), Ray(distance: d + 1.5, amplitude: Complex(phase: phase) * 0.3)]
    }

    static func procedure(_ rays: [Ray], snrDB: Double = 20, turn: Double = 0, rng: inout SplitMix64) -> ToneSet {
        // `turn`: a constant phase a controller may add to a procedure's round trip.
        ToneSet(paths: [ToneSimulator.path(rays: rays, snrDB: snrDB, rng: &rng).map { t in
            var t = t
            t.value = t.value * Complex(phase: turn)
            return t
        }])
    }

    /// 20 procedures of one still `light` channel over 24 phases of its reflection (two hundred
    /// pools in all; at most four of them restarted by a false alarm): the pooled fit's RMSE within 20 % of the bound over √20 (its phase's own
    /// `TwoPathBound`, product form: the simulator multiplies two noisy tones), although every
    /// procedure carries a phase of its own.
    @Test func twentyStillProceduresReachTheBoundOverRootTwenty() throws {
        var rng = SplitMix64(seed: 41)
        var squared = 0.0, bounds = 0.0
        var short = 0
        for i in 0..<24 {
            let phase = 2 * Double.pi * Double(i) / 24
            let d = 2 + 0.9 * Double(i)
            let reflection = Complex(phase: phase - 2 * Double.pi * 2402e6 * 1.5 / Ranging.speedOfLight) * 0.3
            let sigma = TwoPathBound.distanceStandardDeviation(snrDB: 20, excess: 1.5, reflection: reflection) / 20.0.squareRoot()
            for _ in 0..<8 {
                var pool = StillScenePool()
                for _ in 0..<20 { pool.add(Self.procedure(Self.light(d, phase: phase), turn: 2 * Double.pi * rng.uniform(), rng: &rng), distance: d) }
                if pool.count < 19 { short += 1 }
                let pooled = try #require(pool.pooledTones())
                let e = try #require(MultipathFitEstimator().estimate(pooled))
                squared += (e.distance - d) * (e.distance - d)
                bounds += sigma * sigma
            }
        }
        let ratio = (squared / bounds).squareRoot()
        #expect(ratio < 1.2, "pooled RMSE \(ratio)x the bound over √20")
        // A still scene taken for a move (a false alarm, then another) restarts a pool: rarely.
        #expect(short <= 4, "\(short) of 192 pools restarted")
    }

    /// A still scene's procedures join the pool at the false-alarm rate's pace: of 600 offered
    /// to pools of up to 20 (free space and `light`, 15–30 dB), under 1 % are held.
    @Test func aStillSceneIsRarelyTakenForAMove() {
        var rng = SplitMix64(seed: 42)
        var held = 0, offered = 0
        for i in 0..<30 {
            let rays = i % 2 == 0 ? [Ray(distance: 4, amplitude: .one)] : Self.light(7, phase: Double(i))
            let snr = 15 + Double(i % 4) * 5
            var pool = StillScenePool()
            for _ in 0..<20 {
                let v = pool.add(Self.procedure(rays, snrDB: snr, rng: &rng), distance: rays[0].distance)
                if v == .held { held += 1 }
                offered += 1
            }
        }
        #expect(Double(held) < 0.01 * Double(offered), "\(held) of \(offered) held")
    }

    /// The device moves half a metre after ten still procedures: the first procedure after the
    /// step is held, the second restarts the pool with both, and the pooled fit is at the new
    /// distance; a single procedure of another channel in between is dropped and the pool goes on.
    @Test func aStepIsFollowedWithinTwoProceduresAndAnOutlierIsDropped() throws {
        var rng = SplitMix64(seed: 43)
        var pool = StillScenePool()
        for _ in 0..<10 { pool.add(Self.procedure(Self.light(5, phase: 1), rng: &rng), distance: 5) }
        #expect(pool.count == 10)
        // An outlier: a procedure of another room, once.
        #expect(pool.add(Self.procedure(Self.light(9, phase: 2), rng: &rng), distance: 9) == .held)
        #expect(pool.add(Self.procedure(Self.light(5, phase: 1), rng: &rng), distance: 5) == .pooled)
        #expect(pool.count == 11)
        // The step.
        #expect(pool.add(Self.procedure(Self.light(5.5, phase: 1), rng: &rng), distance: 5.5) == .held)
        #expect(pool.add(Self.procedure(Self.light(5.5, phase: 1), rng: &rng), distance: 5.5) == .restarted)
        #expect(pool.count == 2)
        let pooled = try #require(pool.pooledTones())
                let e = try #require(MultipathFitEstimator().estimate(pooled))
        #expect(abs(e.distance - 5.5) < 0.15, "\(e.distance) m")
        // A 20 cm move is a move too.
        for _ in 0..<8 { pool.add(Self.procedure(Self.light(5.5, phase: 1), rng: &rng), distance: 5.5) }
        #expect(pool.add(Self.procedure(Self.light(5.7, phase: 1), rng: &rng), distance: 5.7) == .held)
    }

    /// Too few tones leave the pool as it was; a pool of one gives no pooled tones.
    @Test func unusableProceduresAreSkipped() {
        var rng = SplitMix64(seed: 44)
        var pool = StillScenePool()
        #expect(pool.add(ToneSet(paths: [[]]), distance: nil) == .skipped)
        #expect(pool.count == 0 && pool.pooledTones() == nil)
        pool.add(Self.procedure([Ray(distance: 3, amplitude: .one)], rng: &rng), distance: 3)
        #expect(pool.count == 1 && pool.pooledTones() == nil)
        pool.reset()
        #expect(pool.count == 0)
    }
}
