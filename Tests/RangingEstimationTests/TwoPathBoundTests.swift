import EmulatorMath
import Foundation
@testable import RangingEstimation
import Testing

/// The two-ray Cramér–Rao bound: the single-path bound once the reflection is resolved, far
/// above it for the tool's `light` channel, and no bound at all without a reflection (its
/// excess length is then not identifiable).
@Suite struct TwoPathBoundTests {
    let single = CramerRaoBound.distanceStandardDeviation(frequencies: CramerRaoBound.allowedChannelFrequencies, snrDB: 20, noise: .twoSided)

    @Test(arguments: [0.0, 1.0, 2.0, 3.0])
    func aResolvedReflectionCostsNothing(phase: Double) {
        let sigma = TwoPathBound.distanceStandardDeviation(snrDB: 20, excess: 20, reflection: Complex(phase: phase) * 0.3)
        #expect(abs(sigma / single - 1) < 0.03, "σ \(sigma) m against the single-path \(single) m")
    }

    @Test func lightMultipathBoundsEveryEstimatorNearFifteenCentimetres() {
        // Computed independently (numpy, numerical derivatives, 1000 random phases): 0.143 m.
        let p90 = TwoPathBound.errorQuantile(0.9, snrDB: 20, excess: 1.5, amplitude: 0.3)
        #expect(p90 > 0.13 && p90 < 0.155, "\(p90) m")
        // The bound falls as the SNR rises (σ ∝ 1/√ρ): 10 dB more, √10 less.
        let at30 = TwoPathBound.errorQuantile(0.9, snrDB: 30, excess: 1.5, amplitude: 0.3)
        #expect(abs(p90 / at30 - 10.0.squareRoot()) < 0.01, "\(p90 / at30)")
    }

    /// Under inline PCT the amplitude carries twice the noise the phase does: free of cost for a
    /// resolved reflection (all of a single path's distance is in the phase), 17 % more at the
    /// `light` channel's 90th percentile. Computed independently (numpy, the noise's shape from a
    /// simulation of the reflection, 360 phases): 0.1685 m against 0.1452 m.
    @Test func inlinePCTsAmplitudeNoiseRaisesTheBound() {
        let ipt = TwoPathBound.errorQuantile(0.9, snrDB: 20, excess: 1.5, amplitude: 0.3, form: .inlinePCT)
        let product = TwoPathBound.errorQuantile(0.9, snrDB: 20, excess: 1.5, amplitude: 0.3)
        #expect(abs(ipt - 0.1685) < 0.002 && abs(product - 0.1452) < 0.002, "inline PCT \(ipt) m, product \(product) m")
        let resolved = TwoPathBound.distanceStandardDeviation(snrDB: 20, excess: 20, reflection: Complex(phase: 1) * 0.3, form: .inlinePCT)
        #expect(abs(resolved / single - 1) < 0.03, "σ \(resolved) m against the single-path \(single) m")
    }

    /// The mixture's quantile: one σ gives the half-normal's 1.6449σ; two equal halves at σ and
    /// 3σ put the 90th percentile between the two, where half of each's mass lies below it.
    @Test func theQuantileOfAMixtureOfRealizations() {
        #expect(abs(TwoPathBound.quantile(0.9, ofAbsoluteErrorsWith: [0.05]) - 1.6449 * 0.05) < 1e-4)
        let x = TwoPathBound.quantile(0.9, ofAbsoluteErrorsWith: [0.05, 0.15])
        #expect(abs((erf(x / (0.05 * 2.0.squareRoot())) + erf(x / (0.15 * 2.0.squareRoot()))) / 2 - 0.9) < 1e-6, "\(x)")
        #expect(TwoPathBound.quantile(0.9, ofAbsoluteErrorsWith: []).isNaN)
    }

    @Test func withoutAReflectionTheModelHasNoBound() {
        #expect(TwoPathBound.distanceStandardDeviation(snrDB: 20, excess: 1.5, reflection: .zero) == .infinity)
    }
}
