@testable import EmulatorMath
import Foundation
@testable import RangingEstimation
import Testing

/// The multipath fit: exact on noise-free channels of one and two paths (a stronger late path
/// included; three-path channels are not yet found reliably: issue 12); at the Cramér–Rao bound in free space; and on a generated family of two-ray
/// channels it was not tuned on (excess 1–5 m, amplitude up to 0.7, random phase, 25 dB,
/// 1–30 m) its 90th-percentile error is under 0.15 m and a third of Kay's and IFFT's, and its
/// quality predicts its error.
@Suite struct MultipathFitEstimatorTests {
    typealias Ray = ToneSimulator.Ray

    static func tones(_ rays: [Ray], snrDB: Double?, rng: inout SplitMix64) -> ToneSet {
        ToneSet(paths: [ToneSimulator.path(rays: rays, snrDB: snrDB, rng: &rng)])
    }

    @Test(arguments: [
        ([Ray(distance: 4.0, amplitude: .one)], 1),
        ([Ray(distance: 4.0, amplitude: .one), Ray(distance: 5.2, amplitude: Complex(phase: 1) * 0.6)], 2),
        // The reflection stronger than the direct path: the first path is still the answer.
        ([Ray(distance: 7.5, amplitude: Complex(0.5)), Ray(distance: 10.0, amplitude: Complex(phase: -2))], 2),
    ])
    func noiseFreeChannelsAreRecoveredExactly(rays: [Ray], paths: Int) throws {
        var rng = SplitMix64(seed: 1)
        let e = try #require(MultipathFitEstimator().estimate(Self.tones(rays, snrDB: nil, rng: &rng), diagnostics: true))
        #expect(abs(e.distance - rays[0].distance) < 0.002, "\(e.distance) m against \(rays[0].distance) m")
        #expect(e.diagnostics?.fittedPaths == paths)
        #expect(e.method == .multipathFit)
    }

    @Test func freeSpaceIsAtTheBound() {
        var rng = SplitMix64(seed: 2)
        let crlb = CramerRaoBound.distanceStandardDeviation(frequencies: CramerRaoBound.allowedChannelFrequencies, snrDB: 20, noise: .twoSided)
        var errors: [Double] = []
        for i in 0..<200 {
            let d = 0.5 + Double(i % 40)
            let e = MultipathFitEstimator().estimate(ToneSimulator.singlePath(distance: d, snrDB: 20, rng: &rng))
            errors.append((e?.distance ?? .infinity) - d)
        }
        #expect(errors.rms < 1.2 * crlb && errors.rms > 0.8 * crlb, "RMSE \(errors.rms) m, CRLB \(crlb) m")
    }

    /// Two-ray channels drawn at random: excess 1–5 m, amplitude 0–0.7, random phase, 25 dB.
    static func family(count: Int, seed: UInt64) -> [(tones: ToneSet, truth: Double)] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let d = 1 + 29 * rng.uniform()
            let excess = 1 + 4 * rng.uniform()
            let reflection = Complex(phase: 2 * Double.pi * rng.uniform()) * (0.7 * rng.uniform())
            return (tones([Ray(distance: d, amplitude: .one), Ray(distance: d + excess, amplitude: reflection)], snrDB: 25, rng: &rng), d)
        }
    }

    @Test(arguments: [UInt64(3), 11])
    func aGeneratedTwoRayFamilyIsResolved(seed: UInt64) {
        let cases = Self.family(count: 150, seed: seed)
        func p90(_ estimator: some DistanceEstimator) -> Double {
            cases.map { abs(Ranging.circularDifference(estimator.estimate($0.tones)?.distance ?? .infinity, $0.truth)) }.percentile(0.9)
        }
        let ml = p90(MultipathFitEstimator()), kay = p90(PhaseSlopeEstimator(variant: .kay)), ifft = p90(IFFTEstimator())
        #expect(ml < 0.15 && ml < kay / 3 && ml < ifft / 3, "P90: ml \(ml) m, kay \(kay) m, ifft \(ifft) m")
    }

    /// Quality predicts error: over the same kind of family (other seeds), the estimates with
    /// quality ≥ 0.5 have a 90th-percentile error under 5 cm, and those under 0.1 hold the big errors.
    @Test func qualityPredictsTheError() {
        var good: [Double] = [], poor: [Double] = []
        for (tones, truth) in Self.family(count: 150, seed: 4) {
            guard let e = MultipathFitEstimator().estimate(tones) else { continue }
            let error = abs(Ranging.circularDifference(e.distance, truth))
            if e.quality >= 0.5 { good.append(error) } else if e.quality < 0.1 { poor.append(error) }
        }
        #expect(good.count > 50 && good.percentile(0.9) < 0.05, "quality >= 0.5: \(good.count), P90 \(good.isEmpty ? .nan : good.percentile(0.9)) m")
        #expect(poor.isEmpty || poor.percentile(0.9) > good.percentile(0.9), "quality < 0.1: \(poor.count), P90 \(poor.isEmpty ? .nan : poor.percentile(0.9)) m")
    }

    /// Hostile tones (not finite, or beyond Double's range on squaring) give no distance or a
    /// finite one, never a trap or a NaN.
    @Test(arguments: [Double.nan, .infinity, 1e300, 1e-300])
    func hostileTonesGiveNoNonsense(value: Double) {
        var rng = SplitMix64(seed: 5)
        var tones = ToneSimulator.singlePath(distance: 3, snrDB: 20, rng: &rng)
        tones.paths[0][10].value = Complex(value, value)
        tones.paths.append(tones.paths[0].map { ToneSet.Tone(channel: $0.channel, value: Complex(value, 0)) })
        if let e = MultipathFitEstimator().estimate(tones) {
            #expect(e.distance.isFinite && e.quality.isFinite && (0...1).contains(e.quality), "\(e)")
        }
    }
}
