@testable import DLTDoA
@testable import EmulatorMath
import Foundation
import Testing

/// The TDoA position solver on simulated epochs: accuracy against the CRLB, the closed form,
/// LM convergence, NLOS rejection, fused clusters. Prints the measured numbers.
struct TDoASolverTests {
    typealias Sim = TDoASimulation
    let solver = TDoASolver()

    /// RMSE of the solver over `trials` epochs at `truth` (and the fixes).
    func monteCarlo(clusters: [[Vector3]], truth: Vector3, sigma: Double, fixedHeight: Double? = nil, bias: [Int: [Int: Double]] = [:],
                    trials: Int, seed: UInt64) -> (rmse: Double, fixes: [TDoAFix]) {
        var rng = SeededGenerator(seed: seed)
        var se = 0.0
        var fixes: [TDoAFix] = []
        for _ in 0..<trials {
            let p = Sim.problem(clusters: clusters, at: truth, sigma: sigma, fixedHeight: fixedHeight, bias: bias, rng: &rng)
            guard let fix = solver.solve(p) else { continue }
            let e = fix.position - truth
            se += fixedHeight == nil ? e.dot(e) : e.x * e.x + e.y * e.y
            fixes.append(fix)
        }
        return ((se / Double(max(1, fixes.count))).squareRoot(), fixes)
    }

    @Test func goodGeometryReachesTheCRLB() {
        let truth = Vector3(6.3, 3.1, 1.2)
        let crlb = TDoAGeometry(clusters: [Sim.roomCorners], timingSigma: 0.10).crlbRMSE(at: truth)
        let (rmse, fixes) = monteCarlo(clusters: [Sim.roomCorners], truth: truth, sigma: 0.10, trials: 1000, seed: 11)
        let rejected = fixes.filter { !$0.rejectedAnchors.isEmpty }.count
        let fromChan = fixes.filter(\.startedFromClosedForm).count
        #expect(fixes.count == 1000)
        #expect(fromChan == 1000)
        #expect(rmse <= 1.2 * crlb)
        #expect(rejected <= 10)
    }

    @Test func ceilingAnchorsInTwoDimensions() {
        let truth = Vector3(6.3, 3.1, 1.2)
        let crlb = TDoAGeometry(clusters: [Sim.ceiling], timingSigma: 0.10, fixedHeight: 1.2).crlbRMSE(at: truth)
        let (rmse, fixes) = monteCarlo(clusters: [Sim.ceiling], truth: truth, sigma: 0.10, fixedHeight: 1.2, trials: 1000, seed: 12)
        #expect(fixes.count == 1000)
        #expect(rmse <= 1.2 * crlb)
        #expect(fixes.allSatisfy { $0.position.z == 1.2 && $0.covariance.m22 == 0 })
        // The 3D solve of the same (coplanar) anchors has no closed form.
        var rng = SeededGenerator(seed: 1)
        #expect(ChanHoSolver().solve(Sim.problem(clusters: [Sim.ceiling], at: truth, sigma: 0.1, rng: &rng)) == nil)
    }

    @Test func chanIsExactOnNoiselessData() {
        let truth = Vector3(6.3, 3.1, 1.2)
        for ref in [0, 5] {
            var anchors = Sim.roomCorners
            anchors.swapAt(0, ref)
            let g = TDoAGroup(reference: anchors[0], anchors: Array(anchors.dropFirst()), position: truth)
            let x = ChanHoSolver().solve(g)
            #expect(x != nil && (x! - truth).length < 1e-6)
            // Five anchors, the minimum in 3D.
            let five = TDoAGroup(reference: anchors[0], anchors: Array(anchors[1...4]), position: truth)
            let x5 = ChanHoSolver().solve(five)
            #expect(x5 != nil && (x5! - truth).length < 1e-6)
            #expect(ChanHoSolver().solve(TDoAGroup(reference: anchors[0], anchors: Array(anchors[1...3]), position: truth)) == nil)
        }
        // 2D at a fixed height, ceiling anchors, 6 and the minimum 4.
        let c = Sim.ceiling
        let g2 = TDoAGroup(reference: c[0], anchors: Array(c.dropFirst()), position: truth)
        let x2 = ChanHoSolver().solve(g2, fixedHeight: 1.2)
        #expect(x2 != nil && (x2! - truth).length < 1e-6)
        let g4 = TDoAGroup(reference: c[2], anchors: [c[0], c[1], c[3]], position: truth)
        let x4 = ChanHoSolver().solve(g4, fixedHeight: 1.2)
        #expect(x4 != nil && (x4! - truth).length < 1e-6)
    }

    @Test func leastSquaresConvergesFromTheCentroid() {
        let lm = TDoALeastSquares()
        for (k, truth) in [Vector3(6.3, 3.1, 1.2), Vector3(1, 1, 0.5), Vector3(9, 7, 2.5)].enumerated() {
            let g = TDoAGroup(reference: Sim.roomCorners[0], anchors: Array(Sim.roomCorners.dropFirst()), position: truth)
            let p = TDoAProblem(groups: [g], timingSigma: 0.1)
            let r = lm.solve(p, from: p.anchorCentroid)
            #expect(r != nil && r!.converged && (r!.position - truth).length < 1e-6)
            var rng = SeededGenerator(seed: 100 + UInt64(k))
            let noisy = Sim.problem(clusters: [Sim.roomCorners], at: truth, sigma: 0.1, rng: &rng)
            let fromCentroid = lm.solve(noisy, from: noisy.anchorCentroid)
            let fromChan = lm.solve(noisy, from: ChanHoSolver().solve(noisy)!)
            #expect(fromCentroid != nil && fromCentroid!.converged)
            #expect(fromCentroid != nil && fromChan != nil && (fromCentroid!.position - fromChan!.position).length < 1e-5)
        }
        // Far outside: 30 m away.
        let far = TDoAGroup(reference: Sim.roomCorners[0], anchors: Array(Sim.roomCorners.dropFirst()), position: Vector3(4, 5, 1))
        let r = lm.solve(TDoAProblem(groups: [far], timingSigma: 0.1), from: Vector3(40, -30, 10))
        #expect(r != nil && (r!.position - Vector3(4, 5, 1)).length < 1e-6)
    }

    /// Re-referencing a group (and dropping an anchor or the reference) keeps the fit exact.
    @Test func rereferencingIsExact() {
        var rng = SeededGenerator(seed: 71)
        let truth = Vector3(6.3, 3.1, 1.2)
        let p = Sim.problem(clusters: [Sim.roomCorners], at: truth, sigma: 0.1, rng: &rng)
        let lm = TDoALeastSquares(rejectOutliers: false)
        let base = lm.solve(p, from: truth)!
        for k in [0, 3, 6] {
            var q = p
            q.groups[0] = p.groups[0].rereferenced(to: k)
            let r = lm.solve(q, from: truth)!
            #expect((r.position - base.position).length < 1e-9 && abs(r.cost - base.cost) < 1e-9)
        }
        // Dropping the reference by re-referencing = excluding it from the fit.
        var q = p
        q.groups[0] = p.groups[0].removing(nil)!
        let dropped = lm.solve(q, from: truth)!
        let excluded = lm.fit(p, from: truth, excluding: [.reference(group: 0)])!
        #expect((dropped.position - excluded.position).length < 1e-9 && dropped.usedMeasurements == 6 && excluded.usedMeasurements == 6)
    }

    /// +3 m on one anchor's range (NLOS), on a plain anchor and on the reference.
    @Test(arguments: [3, 0])
    func nlosAnchorIsRejected(biased: Int) {
        let truth = Vector3(6.3, 3.1, 1.2)
        let trials = 500
        let (los, _) = monteCarlo(clusters: [Sim.roomCorners], truth: truth, sigma: 0.10, trials: trials, seed: 21)
        let (rmse, fixes) = monteCarlo(clusters: [Sim.roomCorners], truth: truth, sigma: 0.10, bias: [0: [biased: 3.0]], trials: trials, seed: 21)
        let id = TDoAAnchorID(group: 0, index: biased == 0 ? nil : biased - 1)
        let hits = fixes.filter { $0.rejectedAnchors.first == id }.count
        let extra = fixes.filter { $0.rejectedAnchors.count > 1 }.count
        var without = Sim.roomCorners
        without.remove(at: biased)
        let crlb7 = TDoAGeometry(clusters: [without], timingSigma: 0.1).crlbRMSE(at: truth)
        #expect(fixes.count == trials)
        #expect(Double(hits) >= 0.95 * Double(trials))
        #expect(extra <= trials / 100)
        #expect(rmse <= 1.5 * los)
        // Once the anchor is rejected, the fix is as good as the remaining seven allow.
        #expect(rmse <= 1.1 * crlb7)
        // Without rejection the bias drags the fix.
        let plain = TDoASolver(leastSquares: TDoALeastSquares(rejectOutliers: false))
        var rng = SeededGenerator(seed: 21)
        var se = 0.0
        for _ in 0..<100 {
            let p = Sim.problem(clusters: [Sim.roomCorners], at: truth, sigma: 0.1, bias: [0: [biased: 3.0]], rng: &rng)
            let e = plain.solve(p)!.position - truth
            se += e.dot(e)
        }
        #expect((se / 100).squareRoot() > 3 * los)
    }

    /// Two clusters (5 and 4 anchors, each its own reference), fused.
    @Test func twoClustersAreFused() {
        let a: [Vector3] = [Vector3(0, 0, 3), Vector3(5, 0, 0.3), Vector3(0, 8, 0.3), Vector3(5, 8, 3), Vector3(0, 4, 1.5)]
        let b: [Vector3] = [Vector3(10, 8, 3), Vector3(5, 8, 0.3), Vector3(10, 0, 0.3), Vector3(5, 0, 3)]
        let truth = Vector3(5.5, 4.5, 1.2)
        let both = TDoAGeometry(clusters: [a, b], timingSigma: 0.1).crlbRMSE(at: truth)
        let onlyA = TDoAGeometry(clusters: [a], timingSigma: 0.1).crlbRMSE(at: truth)
        let onlyB = TDoAGeometry(clusters: [b], timingSigma: 0.1).crlbRMSE(at: truth)
        let (rmse, fixes) = monteCarlo(clusters: [a, b], truth: truth, sigma: 0.1, trials: 1000, seed: 31)
        let (rmseA, _) = monteCarlo(clusters: [a], truth: truth, sigma: 0.1, trials: 1000, seed: 31)
        #expect(fixes.count == 1000)
        #expect(fixes.allSatisfy { $0.usedMeasurements == 7 || !$0.rejectedAnchors.isEmpty })
        #expect(rmse <= 1.2 * both)
        #expect(both < onlyA && both < onlyB)
        #expect(rmse < rmseA)
        // Two clusters of four: no single group has a closed form; the joint stage 1 (one d_ref
        // per group) is exact on noiseless data, and from the centroid LM converges too.
        let a4 = Array(a.prefix(4))
        let exact = TDoAProblem(groups: [a4, b].map { TDoAGroup(reference: $0[0], anchors: Array($0.dropFirst()), position: truth) }, timingSigma: 0.1)
        #expect(ChanHoSolver().solve(exact.groups[0]) == nil && ChanHoSolver().solve(exact.groups[1]) == nil)
        let joint = ChanHoSolver().solve(exact)
        #expect(joint != nil && (joint! - truth).length < 1e-6)
        var rng = SeededGenerator(seed: 32)
        var se = 0.0, seJoint = 0.0
        for _ in 0..<500 {
            let p = Sim.problem(clusters: [a4, b], at: truth, sigma: 0.1, rng: &rng)
            let fix = solver.solve(p)
            let lm = TDoALeastSquares().solve(p, from: p.anchorCentroid)
            #expect(fix != nil && fix!.converged && fix!.startedFromClosedForm)
            #expect(lm != nil && lm!.converged && (lm!.position - fix!.position).length < 1e-4)
            se += (fix!.position - truth).dot(fix!.position - truth)
            let j = ChanHoSolver().solve(p)!
            seJoint += (j - truth).dot(j - truth)
        }
        let crlb44 = TDoAGeometry(clusters: [a4, b], timingSigma: 0.1).crlbRMSE(at: truth)
        #expect((se / 500).squareRoot() <= 1.2 * crlb44)
    }

    /// NLOS in the second of two clusters, and on a ceiling anchor in 2D.
    @Test func nlosInAClusterAndInTwoDimensions() {
        let a: [Vector3] = [Vector3(0, 0, 3), Vector3(5, 0, 0.3), Vector3(0, 8, 0.3), Vector3(5, 8, 3), Vector3(0, 4, 1.5)]
        let b: [Vector3] = [Vector3(10, 8, 3), Vector3(5, 8, 0.3), Vector3(10, 0, 0.3), Vector3(5, 0, 3), Vector3(10, 4, 1.5)]
        let truth = Vector3(5.5, 4.5, 1.2)
        for biased in [0, 2] {
            let (los, _) = monteCarlo(clusters: [a, b], truth: truth, sigma: 0.1, trials: 500, seed: 33)
            let (rmse, fixes) = monteCarlo(clusters: [a, b], truth: truth, sigma: 0.1, bias: [1: [biased: 3.0]], trials: 500, seed: 33)
            let id = TDoAAnchorID(group: 1, index: biased == 0 ? nil : biased - 1)
            let hits = fixes.filter { $0.rejectedAnchors.first == id }.count
            #expect(hits >= 475)
            #expect(rmse <= 1.5 * los)
        }
        let truth2 = Vector3(6.3, 3.1, 1.2)
        for biased in [0, 4] {
            let (los, _) = monteCarlo(clusters: [Sim.ceiling], truth: truth2, sigma: 0.1, fixedHeight: 1.2, trials: 500, seed: 34)
            let (rmse, fixes) = monteCarlo(clusters: [Sim.ceiling], truth: truth2, sigma: 0.1, fixedHeight: 1.2, bias: [0: [biased: 3.0]], trials: 500, seed: 34)
            let id = TDoAAnchorID(group: 0, index: biased == 0 ? nil : biased - 1)
            let hits = fixes.filter { $0.rejectedAnchors.first == id }.count
            #expect(hits >= 475)
            #expect(rmse <= 1.5 * los)
        }
    }

    /// Two NLOS anchors at once (+2 m each, different corners of the 8). With 2 degrees of
    /// freedom left, another pair of anchors sometimes explains the data as well (a fix 1.3 m
    /// away with an even lower cost), so one epoch cannot always tell: the pair search finds
    /// both in about three epochs of four (greedy leave-one-out alone: 191 of 300, RMSE 0.85 m).
    @Test func twoNLOSAnchors() {
        let truth = Vector3(6.3, 3.1, 1.2)
        let (rmse, fixes) = monteCarlo(clusters: [Sim.roomCorners], truth: truth, sigma: 0.1, bias: [0: [2: 2.0, 5: 2.0]], trials: 300, seed: 35)
        let both: Set<TDoAAnchorID> = [TDoAAnchorID(group: 0, index: 1), TDoAAnchorID(group: 0, index: 4)]
        let hits = fixes.filter { Set($0.rejectedAnchors) == both }.count
        #expect(hits >= 210)
        #expect(rmse < 0.8)
    }
}
