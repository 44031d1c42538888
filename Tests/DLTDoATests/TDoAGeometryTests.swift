@testable import DLTDoA
@testable import EmulatorMath
import Foundation
import Testing

/// The CRLB / GDOP of `TDoAGeometry`: its closed form against Gᵀ Q⁻¹ G, against the solver's
/// Monte-Carlo covariance at high SNR, and its growth outside the anchors' hull.
struct TDoAGeometryTests {
    typealias Sim = TDoASimulation

    /// Gᵀ Q⁻¹ G with an explicit reference and the explicit inverse of σ²(I + 11ᵀ).
    static func explicitFisher(reference: Vector3, anchors: [Vector3], at x: Vector3, sigma: Double) -> Matrix3 {
        let u0 = (x - reference).normalized
        let rows = anchors.map { (x - $0).normalized - u0 }
        let n = anchors.count
        var j = Matrix3.zero
        for a in 0..<n {
            for b in 0..<n {
                let w = ((a == b ? 1 : 0) - 1 / Double(n + 1)) / (sigma * sigma)
                j += Matrix3.outer(rows[a], rows[b]) * w
            }
        }
        return j
    }

    @Test func centredFormIsGTransposeQInverseG() {
        let x = Vector3(6.3, 3.1, 1.2)
        let c = Sim.roomCorners
        let geometry = TDoAGeometry(clusters: [c], timingSigma: 0.1)
        for ref in [0, 3, 6] {
            var others = c
            others.remove(at: ref)
            let e = Self.explicitFisher(reference: c[ref], anchors: others, at: x, sigma: 0.1)
            let d = geometry.fisherInformation(at: x) - e
            #expect(d.elements.allSatisfy { abs($0) < 1e-9 * e.trace })
        }
    }

    @Test func crlbMatchesTheMonteCarloCovarianceAtHighSNR() {
        let truth = Vector3(6.3, 3.1, 1.2)
        let sigma = 0.01
        for (label, clusters, height) in [("3D corners", [Sim.roomCorners], nil as Double?), ("2D ceiling", [Sim.ceiling], 1.2)] {
            let crlb = TDoAGeometry(clusters: clusters, timingSigma: sigma, fixedHeight: height).crlbCovariance(at: truth)!
            var rng = SeededGenerator(seed: 51)
            var errors: [Vector3] = []
            var mean = Vector3.zero
            let trials = 3000
            for _ in 0..<trials {
                let p = Sim.problem(clusters: clusters, at: truth, sigma: sigma, fixedHeight: height, rng: &rng)
                let e = TDoASolver().solve(p)!.position - truth
                errors.append(e)
                mean += e * (1 / Double(trials))
            }
            var cov = Matrix3.zero
            for e in errors { cov += Matrix3.outer(e - mean) * (1 / Double(trials - 1)) }
            let ratio = cov.trace / crlb.trace
            let diag = height == nil ? [cov.m00 / crlb.m00, cov.m11 / crlb.m11, cov.m22 / crlb.m22] : [cov.m00 / crlb.m00, cov.m11 / crlb.m11]
            #expect(abs(ratio - 1) < 0.10, "\(label)")
            #expect(diag.allSatisfy { abs($0 - 1) < 0.10 }, "\(label)")
        }
    }

    @Test func gdopGrowsOutsideTheHull() {
        let g3 = TDoAGeometry(clusters: [Sim.roomCorners], timingSigma: 0.1)
        let centre = g3.gdop(at: Vector3(5, 4, 1.5))
        let outside = g3.gdop(at: Vector3(16, 4, 1.5))
        let farOutside = g3.gdop(at: Vector3(30, 12, 1.5))
        let g2 = TDoAGeometry(clusters: [Sim.ceiling], timingSigma: 0.1, fixedHeight: 1.2)
        let centre2 = g2.gdop(at: Vector3(5, 4, 0))
        let outside2 = g2.gdop(at: Vector3(16, 4, 0))
        #expect(outside >= 2 * centre)
        #expect(farOutside > outside)
        #expect(outside2 >= 2 * centre2)
        #expect(abs(g3.crlbRMSE(at: Vector3(5, 4, 1.5)) - 0.1 * centre) < 1e-12)
        // Degenerate: a single anchor pair cannot fix 3D.
        #expect(TDoAGeometry(clusters: [[Vector3(0, 0, 0), Vector3(1, 0, 0)]], timingSigma: 0.1).gdop(at: Vector3(3, 3, 3)) == .infinity)
    }
}
