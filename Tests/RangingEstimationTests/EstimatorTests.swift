@testable import EmulatorMath
@testable import RangingEstimation
import Testing
import TestSupport

/// Accuracy of the distance estimators on simulated tones (see `ToneSimulator`).
struct EstimatorTests {
    static let kay = PhaseSlopeEstimator(variant: .kay)
    static let leastSquares = PhaseSlopeEstimator(variant: .leastSquares)
    static let uniform = PhaseSlopeEstimator(variant: .uniform)
    static let ifft = IFFTEstimator()
    static let esprit = ESPRITEstimator()
    static let all: [(String, any DistanceEstimator, Double)] = [
        ("kay", kay, 0.01), ("ls", leastSquares, 0.01), ("uniform", uniform, 0.01),
        ("ifft", ifft, 0.02), ("esprit", esprit, 0.01),
    ]
    static let crlb20 = CramerRaoBound.distanceStandardDeviation(
        frequencies: CramerRaoBound.allowedChannelFrequencies, snrDB: 20)

    @Test(arguments: [0.5, 3, 17.3, 40, 120])
    func noiseFreeSinglePath(distance: Double) throws {
        var rng = SplitMix64(seed: 1)
        let tones = ToneSimulator.singlePath(distance: distance, snrDB: nil, rng: &rng)
        for (name, est, tol) in Self.all {
            let e = try #require(est.estimate(tones), "\(name)")
            #expect(abs(e.distance - distance) < tol, "\(name): \(e.distance) for \(distance)")
            #expect(e.toneCount == 72)
            #expect(e.quality > 0.99, "\(name) quality \(e.quality)")
        }
    }

    /// RMSE over seeded trials at 20 dB (two-sided noise) for distances 0.5…40 m.
    static func freeSpaceRMSE(_ est: some DistanceEstimator, trials: Int, seed: UInt64) -> Double {
        var rng = SplitMix64(seed: seed)
        var errors: [Double] = []
        for d in [0.5, 3, 10, 25, 40] {
            for _ in 0..<trials {
                let tones = ToneSimulator.singlePath(distance: d, snrDB: 20, rng: &rng)
                guard let e = est.estimate(tones) else { errors.append(.infinity); continue }
                errors.append(Ranging.circularDifference(e.distance, d))
            }
        }
        return errors.rms
    }

    @Test func phaseSlopeMeetsTheCRLB() {
        let kay = Self.freeSpaceRMSE(Self.kay, trials: 300, seed: 11) / Self.crlb20
        let ls = Self.freeSpaceRMSE(Self.leastSquares, trials: 300, seed: 11) / Self.crlb20
        let uni = Self.freeSpaceRMSE(Self.uniform, trials: 300, seed: 11) / Self.crlb20
        #expect(kay < 1.2)
        #expect(ls < 1.2)
        // Uniform weights telescope to the end points of the two channel runs: ≈ 5–6× the bound.
        #expect(uni > 3 && uni < 8)
    }

    @Test func ifftNearTheCRLB() {
        let r = Self.freeSpaceRMSE(Self.ifft, trials: 60, seed: 12) / Self.crlb20
        #expect(r < 1.5)
    }

    @Test func espritNearTheCRLB() {
        let r = Self.freeSpaceRMSE(Self.esprit, trials: 20, seed: 13) / Self.crlb20
        #expect(r < 1.5)
    }

    /// Direct path at 5 m, reflection 3 m longer, amplitude 0.6…0.8 with random phase, 20 dB.
    @Test func twoRaySuperResolution() {
        var rng = SplitMix64(seed: 21)
        var espritErr: [Double] = [], ifftErr: [Double] = [], kayErr: [Double] = []
        for _ in 0..<100 {
            let a = 0.6 + 0.2 * rng.uniform()
            let rays = [ToneSimulator.Ray(distance: 5, amplitude: .one),
                        ToneSimulator.Ray(distance: 8, amplitude: Complex(phase: 2 * Double.pi * rng.uniform()) * a)]
            let tones = ToneSet(paths: [ToneSimulator.path(rays: rays, snrDB: 20, rng: &rng)])
            espritErr.append(abs(Ranging.circularDifference(Self.esprit.estimate(tones)!.distance, 5)))
            ifftErr.append(abs(Ranging.circularDifference(Self.ifft.estimate(tones)!.distance, 5)))
            kayErr.append(abs(Ranging.circularDifference(Self.kay.estimate(tones)!.distance, 5)))
        }
        let pE = espritErr.percentile(0.9), pI = ifftErr.percentile(0.9), pK = kayErr.percentile(0.9)
        #expect(pE < 0.3)
        #expect(pI > 0.3)
        #expect(pK > 0.3)
    }
}
