@testable import DLTDoA
@testable import EmulatorMath
import Foundation
import Testing

/// `PositionTracker`: smoothing of a walk and gating of outlier fixes.
struct TDoATrackerTests {
    typealias Sim = TDoASimulation

    /// A 1 m/s walk on a 3 m circle at 1.2 m, fixes at 10 Hz with σ 0.15 m per axis.
    static func walk(at t: Double) -> Vector3 {
        let w = 1.0 / 3.0
        return Vector3(5 + 3 * cos(w * t), 4 + 3 * sin(w * t), 1.2)
    }

    @Test func filteredWalkBeatsTheRawFixes() {
        var rng = SeededGenerator(seed: 61)
        var tracker = PositionTracker()
        let sigma = 0.15
        let r = Matrix3.diagonal(sigma * sigma, sigma * sigma, sigma * sigma)
        var seRaw = 0.0, seFiltered = 0.0, count = 0
        var accepted = 0
        for k in 0..<600 {
            let t = Double(k) * 0.1
            let truth = Self.walk(at: t)
            let fix = truth + Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * sigma
            let u = tracker.update(fix: fix, covariance: r, at: t)
            if u.outcome == .accepted { accepted += 1 }
            if k >= 20 {  // after the filter settles
                seRaw += (fix - truth).dot(fix - truth)
                seFiltered += (u.position - truth).dot(u.position - truth)
                count += 1
            }
        }
        let raw = (seRaw / Double(count)).squareRoot(), filtered = (seFiltered / Double(count)).squareRoot()
        #expect(filtered < 0.8 * raw)
        #expect(accepted >= 590)
        #expect(abs(tracker.velocity.length - 1) < 0.3)
    }

    @Test func outlierFixIsGatedAndAJumpResets() {
        var rng = SeededGenerator(seed: 62)
        var tracker = PositionTracker()
        let sigma = 0.15
        let r = Matrix3.diagonal(sigma * sigma, sigma * sigma, sigma * sigma)
        var outlierOutcome: PositionTrackerUpdate?
        var worstAfter = 0.0
        for k in 0..<200 {
            let t = Double(k) * 0.1
            let truth = Self.walk(at: t)
            var fix = truth + Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * sigma
            if k == 100 { fix = fix + Vector3(3, 4, 0) }  // 5 m off
            let u = tracker.update(fix: fix, covariance: r, at: t)
            if k == 100 { outlierOutcome = u }
            if k >= 100 && k < 110 { worstAfter = max(worstAfter, (u.position - truth).length) }
        }
        #expect(outlierOutcome?.outcome == .rejected)
        #expect(worstAfter < 0.4)
        // The receiver really jumps 5 m: two rejections, then the third resets the track there.
        var outcomes: [PositionTrackerUpdate.Outcome] = []
        for k in 200..<205 {
            let t = Double(k) * 0.1
            let fix = Self.walk(at: t) + Vector3(3, 4, 0)
            outcomes.append(tracker.update(fix: fix, covariance: r, at: t).outcome)
        }
        #expect(outcomes == [.rejected, .rejected, .reset, .accepted, .accepted])
        #expect(abs(ChiSquare.quantile(0.999, degreesOfFreedom: 3) - 16.266) < 0.001)
        #expect(abs(ChiSquare.quantile(0.999, degreesOfFreedom: 1) - 10.828) < 0.001)
        #expect(abs(ChiSquare.quantile(0.99, degreesOfFreedom: 4) - 13.277) < 0.001)
    }
}
