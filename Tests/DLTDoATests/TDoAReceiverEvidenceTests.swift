@testable import DLTDoA
import EmulatorMath
import Testing

/// What the receiver knows beyond one epoch's differences: the deployment's volume, each
/// anchor's delay over epochs, the noise the fits show.
@Suite struct TDoAReceiverEvidenceTests {
    /// Anchors on one ceiling plane see a point and its mirror alike: solved in 3D, half the
    /// fixes could land 1.8 m above the ceiling. With the volume (headroom 1 m) every fix is
    /// the one below, and within a few σ·GDOP of the truth.
    @Test func volumeChoosesTheImageBelowTheCeiling() {
        let anchors = TDoASimulation.ceiling + [Vector3(2.5, 4, 2.9), Vector3(7.5, 4, 2.95)]
        let volume = TDoAVolume(anchors: anchors, floor: 0)
        #expect(volume.maximum.z == 4 && volume.minimum.z == 0 && volume.minimum.x == -2)
        var rng = SeededGenerator(seed: 21)
        var above = 0, worst = 0.0
        for _ in 0..<60 {
            let truth = Vector3(2 + 6 * rng.uniform(), 2 + 4 * rng.uniform(), 1.2)
            var p = TDoASimulation.problem(clusters: [anchors], at: truth, sigma: 0.05, rng: &rng)
            let free = TDoASolver().solve(p)
            if let f = free, f.position.z > 3 { above += 1 }
            p.volume = volume
            let fix = TDoASolver().solve(p)!
            #expect(volume.contains(fix.position))
            worst = max(worst, (fix.position - truth).length)
        }
        #expect(above > 0, "without the volume some fixes are the mirror image (\(above) of 60)")
        #expect(worst < 1.5, "worst fix \(worst) m")
    }

    /// The mirror of a point through the anchors' best plane (here z = 3).
    @Test func mirrorThroughTheAnchorsPlane() {
        let g = TDoAGroup(reference: TDoASimulation.ceiling[0], anchors: Array(TDoASimulation.ceiling.dropFirst()), position: Vector3(4, 4, 1))
        let m = TDoASolver.mirror(Vector3(4, 4, 1), TDoAProblem(groups: [g], timingSigma: 0.1))
        #expect(abs(m.x - 4) < 1e-9 && abs(m.y - 4) < 1e-9 && abs(m.z - 5) < 1e-6)
    }

    /// A constant 0.5 m delay seen with σ 0.3 m per epoch (1.7σ: no single epoch can tell) is
    /// significant after a few epochs; an anchor on time is not; a shadow that lifts stops
    /// counting within ten epochs.
    @Test func delayHistoryAccumulatesEvidence() {
        var late = AnchorDelayHistory(), onTime = AnchorDelayHistory()
        var rng = SeededGenerator(seed: 3)
        var firstLate: Int?
        for k in 1...40 {
            late.add(delay: 0.5 + 0.3 * rng.gaussian(), sigma: 0.3, forgetting: 0.85)
            onTime.add(delay: 0.3 * rng.gaussian(), sigma: 0.3, forgetting: 0.85)
            if firstLate == nil, late.isLate(threshold: 4, minimumEpochs: 3) { firstLate = k }
            #expect(!onTime.isLate(threshold: 4, minimumEpochs: 3))
        }
        #expect(firstLate != nil && firstLate! <= 12)
        #expect(abs(late.mean - 0.5) < 0.26)  // three of its standard errors (0.085 m)
        var lifted: Int?
        for k in 1...20 {
            late.add(delay: 0.3 * rng.gaussian(), sigma: 0.3, forgetting: 0.85)
            if lifted == nil, !late.isLate(threshold: 4, minimumEpochs: 3) { lifted = k }
        }
        #expect(lifted != nil && lifted! <= 10)
    }

    /// Fits whose χ² runs at 4× its degrees of freedom (σ really twice the configured one) give
    /// a scale near 4; a minority of spoiled epochs (χ² 50× too big) does not move the median.
    @Test func noiseScaleFollowsTheFits() {
        var estimate = NoiseScaleEstimate()
        #expect(estimate.scale == 1)
        var rng = SeededGenerator(seed: 8)
        for k in 0..<40 {
            let dof = 3 + k % 4
            var chi2 = 0.0
            for _ in 0..<dof { let n = rng.gaussian(); chi2 += n * n }
            estimate.add(cost: (k % 8 == 0 ? 50 : 4) * chi2, degreesOfFreedom: dof, solvedAtScale: 1)
        }
        #expect(estimate.scale > 3 && estimate.scale < 5.5, "scale \(estimate.scale)")
    }
}
