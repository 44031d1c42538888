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

    @Test func withoutAReflectionTheModelHasNoBound() {
        #expect(TwoPathBound.distanceStandardDeviation(snrDB: 20, excess: 1.5, reflection: .zero) == .infinity)
    }
}
