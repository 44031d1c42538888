@testable import EmulatorMath
import Foundation
@testable import RangingEstimation
import TestSupport
import Testing

/// `BoardCalibration` and its learner on synthetic tones whose paths carry known delays.
struct BoardCalibrationTests {
    /// Four paths at `distance` whose path p reads `delays[p]` long, with a reflection.
    static func procedure(distance: Double, delays: [Double], snrDB: Double?, reflection: Double = 0, rng: inout SplitMix64) -> ToneSet {
        ToneSet(paths: delays.map { d in
            ToneSimulator.path(rays: [.init(distance: distance + d, amplitude: .one),
                                      .init(distance: distance + d + 1.5, amplitude: Complex(reflection * 0.8, reflection * 0.6))],
                               snrDB: snrDB, rng: &rng)
        })
    }

    @Test func applyTakesEachPathsDelayOff() {
        var rng = SplitMix64(seed: 3)
        let delays = [0.2, 1.1, -0.4, 0.7]
        let tones = Self.procedure(distance: 4, delays: delays, snrDB: nil, rng: &rng)
        let calibrated = BoardCalibration(pathDelays: delays, reference: .absolute).apply(to: tones)
        let slope = PhaseSlopeEstimator(variant: .kay)
        for p in 0..<4 {
            let before = slope.estimatePath(tones.paths[p], diagnostics: false)!.distance
            let after = slope.estimatePath(calibrated.paths[p], diagnostics: false)!.distance
            #expect(abs(before - (4 + delays[p])) < 1e-6)
            #expect(abs(after - 4) < 1e-6, "path \(p): \(after)")
        }
        // A calibration of fewer paths leaves the others as they were; none changes nothing.
        let short = BoardCalibration(pathDelays: [0.2], reference: .relative).apply(to: tones)
        #expect(short.paths[1...] == tones.paths[1...])
        #expect(BoardCalibration.none.apply(to: tones) == tones)
    }

    /// Relative delays from 20 noisy procedures in a reflection, over several boards: within
    /// 2 cm of the truth referred to the paths' median, even with 3 procedures spoiled.
    @Test(arguments: [UInt64(1), 2, 3])
    func relativeDelaysAreRecoveredRobustly(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let delays = (0..<4).map { _ in 1.5 * rng.uniform() }
        var procedures: [ToneSet] = []
        for k in 0..<20 {
            let distance = [1.0, 3.0, 7.0, 15.0][k % 4]
            procedures.append(Self.procedure(distance: distance, delays: delays, snrDB: 20, reflection: 0.3, rng: &rng))
        }
        // Spoiled procedures: path 2's tones from another room (3 m off).
        for k in [4, 9, 13] {
            var spoiled = delays
            spoiled[2] += 3
            procedures[k] = Self.procedure(distance: 5, delays: spoiled, snrDB: 20, rng: &rng)
        }
        guard let report = BoardCalibrationLearner().relative(procedures) else {
            Issue.record("nothing learned")
            return
        }
        let sorted = delays.sorted()
        let median = (sorted[1] + sorted[2]) / 2
        for p in 0..<4 {
            #expect(abs(report.calibration.pathDelays[p] - (delays[p] - median)) < 0.02,
                    "path \(p): learned \(report.calibration.pathDelays[p]), true \(delays[p] - median)")
        }
        #expect(report.calibration.reference == .relative)
        #expect(report.proceduresPerPath == [20, 20, 20, 20])
        #expect(report.spreadBefore! > 0.5 * (sorted[3] - sorted[0]))
        #expect(report.spreadAfter! < 0.05, "spread after \(report.spreadAfter!) m")
    }

    /// At a known distance: absolute delays within 2 cm, and a distance at another range back
    /// at the truth.
    @Test func absoluteDelaysAndTheRTTOffset() {
        var rng = SplitMix64(seed: 11)
        let delays = [0.35, 0.9, 0.1, 1.3]
        let procedures = (0..<10).map { _ in Self.procedure(distance: 2, delays: delays, snrDB: 25, rng: &rng) }
        // Round trips 2·(2 m + 0.6 m)/c, ±1 ns.
        let roundTrips = (0..<10).map { _ in
            RoundTripTimes(samples: (0..<20).map { _ in
                RoundTripTimes.Sample(channel: 10, halfNanoseconds: Int32((2 * 2.6 / Ranging.speedOfLight * 2e9 + 2 * rng.gaussian()).rounded()))
            })
        }
        let learner = BoardCalibrationLearner(estimator: PhaseSlopeEstimator(variant: .kay))
        guard let report = learner.absolute(procedures, roundTrips: roundTrips, distance: 2) else {
            Issue.record("nothing learned")
            return
        }
        for p in 0..<4 { #expect(abs(report.calibration.pathDelays[p] - delays[p]) < 0.02, "path \(p): \(report.calibration.pathDelays[p])") }
        #expect(abs(report.calibration.roundTripOffset! - 0.6) < 0.03, "offset \(report.calibration.roundTripOffset!)")
        let far = Self.procedure(distance: 9, delays: delays, snrDB: 25, rng: &rng)
        let calibrated = CalibratedEstimator(PhaseSlopeEstimator(variant: .kay), calibration: report.calibration)
        #expect(abs(calibrated.estimate(far)!.distance - 9) < 0.03)
        #expect(abs(PhaseSlopeEstimator(variant: .kay).estimate(far)!.distance - 9) > 0.3)
        // The offset reaches the round-trip estimators through the calibration.
        let rtt = CalibratedEstimator(RoundTripTimeEstimator(), calibration: report.calibration)
        #expect(abs(rtt.estimate(ToneSet(paths: []), roundTrips: roundTrips[0])!.distance - 2) < 0.1)
        let combined = report.calibration.timing(CombinedEstimator()) as! CombinedEstimator
        #expect(combined.timing.offset == report.calibration.roundTripOffset!)
    }
}
