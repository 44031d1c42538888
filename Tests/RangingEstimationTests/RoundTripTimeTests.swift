import Foundation
@testable import EmulatorMath
@testable import RangingEstimation
import Testing

/// Round-trip timing: the bound's worked numbers, the estimator over generated families of
/// distances, noise levels and outlier rates (against truth and the bound), and the combined
/// estimator's two rules.
struct RoundTripTimeTests {
    /// Metres of one-way distance per half-nanosecond of round trip: c·0.5 ns/2.
    let metresPerHalfNs = Ranging.speedOfLight * 0.25e-9

    /// A procedure's round trips at `distance` with Gaussian per-step σ (half-ns), a share of
    /// wild steps (uniform over ±600 half-ns, as Silicon Labs' recording shows), quantized to 0.5 ns.
    func procedure(distance: Double, sigma: Double, steps: Int, wild: Double = 0, rng: inout SeededGenerator) -> RoundTripTimes {
        let truth = distance / metresPerHalfNs
        var t = RoundTripTimes()
        for k in 0..<steps {
            let x = rng.bernoulli(wild) ? truth + (rng.uniform() * 1200 - 600) : truth + rng.gaussian() * sigma
            t.samples.append(.init(channel: UInt8(2 + k % 70), halfNanoseconds: Int32(x.rounded())))
        }
        return t
    }

    @Test func theBoundsWorkedNumbers() {
        // 44 symbols of an AA-only CS_SYNC on 1M at 20 dB: σ_τ = 1/(2π·210 kHz·√(2·4400)) = 8.08 ns.
        let arrival = RoundTripTimeBound.arrivalStandardDeviation(snrDB: 20, phy: .le1M, sequenceBits: 0)
        #expect(abs(arrival - 8.079e-9) < 0.001e-9)
        #expect(RoundTripTimeBound.symbols(phy: .le1M, sequenceBits: 0) == 44)
        #expect(RoundTripTimeBound.symbols(phy: .le2M, sequenceBits: 96) == 148)
        // A 96-bit sounding sequence carries 140/44 times the energy: σ over √(140/44).
        let longer = RoundTripTimeBound.arrivalStandardDeviation(snrDB: 20, phy: .le1M, sequenceBits: 96)
        #expect(abs(arrival / longer - (140.0 / 44).squareRoot()) < 1e-9)
        // 72 steps, two arrivals each: (c/2)·√2·8.08 ns/√72 = 0.202 m.
        let d = RoundTripTimeBound.distanceStandardDeviation(steps: 72, snrDB: 20)
        #expect(abs(d - 0.2018) < 0.0001)
        // Quantization to 10 ns adds q²/12 per timestamp.
        let coarse = RoundTripTimeBound.roundTripStandardDeviation(snrDB: .infinity, phy: .le1M, sequenceBits: 0, resolutionSeconds: 10e-9)
        #expect(abs(coarse - (2 * 100.0 / 12).squareRoot() * 1e-9) < 1e-15)
        #expect(RoundTripTimeBound.distanceStandardDeviation(steps: 0, snrDB: 20) == .infinity)
    }

    /// Over distances 0.5–140 m, per-step σ 5–100 half-ns and 20–150 steps, the estimator is
    /// unbiased and at the bound σ/√N (its RMSE within 1.15× of it), with or without 2 % wild steps.
    @Test(arguments: [0.0, 0.02])
    func atTheBoundOverGeneratedFamilies(wild: Double) {
        var rng = SeededGenerator(seed: 40, stream: wild == 0 ? 1 : 2)
        let estimator = RoundTripTimeEstimator()
        for (distance, sigma, steps) in [(0.5, 5.0, 72), (3.0, 20.0, 72), (12.0, 60.0, 150), (47.0, 100.0, 20), (140.0, 40.0, 40)] {
            var squares = 0.0, sum = 0.0
            let trials = 400
            for _ in 0..<trials {
                let e = estimator.estimate(procedure(distance: distance, sigma: sigma, steps: steps, wild: wild, rng: &rng))!
                sum += e.distance - distance
                squares += (e.distance - distance) * (e.distance - distance)
            }
            let bound = sigma * metresPerHalfNs / Double(steps).squareRoot()
            let rmse = (squares / Double(trials)).squareRoot()
            #expect(rmse / bound < 1.15, "d \(distance) σ \(sigma) N \(steps) wild \(wild): RMSE \(rmse) bound \(bound)")
            #expect(abs(sum / Double(trials)) < 3 * bound / Double(trials).squareRoot() + 0.01, "d \(distance): bias \(sum / Double(trials))")
        }
    }

    /// Without the outlier screen, the same wild steps cost several times the bound: the screen is
    /// what holds it.
    @Test func theMeanAloneIsNotRobust() {
        var rng = SeededGenerator(seed: 41, stream: 1)
        let plain = RoundTripTimeEstimator(outlierThreshold: .infinity)
        let robust = RoundTripTimeEstimator()
        var plainSquares = 0.0, robustSquares = 0.0
        for _ in 0..<400 {
            let t = procedure(distance: 8, sigma: 20, steps: 72, wild: 0.05, rng: &rng)
            plainSquares += pow(plain.estimate(t)!.distance - 8, 2)
            robustSquares += pow(robust.estimate(t)!.distance - 8, 2)
        }
        #expect(plainSquares > 4 * robustSquares)
    }

    @Test func standardErrorQualityAndTheOffset() throws {
        var rng = SeededGenerator(seed: 42, stream: 1)
        let t = procedure(distance: 5, sigma: 40, steps: 72, rng: &rng)
        let r = try #require(RoundTripTimeEstimator().result(t))
        // The standard error is the sample spread over √N: about 40 half-ns·7.5 cm/√72.
        #expect(abs(r.standardError - 40 * metresPerHalfNs / 72.0.squareRoot()) < 0.06)
        #expect(r.used + r.outliers == 72)
        // Quality: all steps used, precision factor 1/(1 + (σ̂/0.5)²).
        let e = try #require(RoundTripTimeEstimator().estimate(t))
        #expect(abs(e.quality - 1 / (1 + pow(r.standardError / 0.5, 2))) < 1e-12)
        #expect(e.method == .roundTripTime && e.standardError == r.standardError)
        // Rejected steps lower it in proportion.
        var rejected = t
        rejected.rejected = .init(accessAddress: 18, notAvailable: 0, unpaired: 0)
        #expect(abs(RoundTripTimeEstimator().estimate(rejected)!.quality - e.quality * 72 / 90) < 1e-12)
        // A calibrated offset comes off every distance; a board nearer than it reads 0.
        let shifted = try #require(RoundTripTimeEstimator(offset: 1.25).result(t))
        #expect(abs(r.distance - shifted.distance - 1.25) < 1e-12)
        #expect(RoundTripTimeEstimator(offset: 100).estimate(t)!.distance == 0)
    }

    @Test func tooFewStepsGiveNothing() {
        let two = RoundTripTimes(samples: [.init(channel: 2, halfNanoseconds: 40), .init(channel: 3, halfNanoseconds: 41)])
        #expect(RoundTripTimeEstimator().estimate(two) == nil)
        #expect(RoundTripTimeEstimator().estimate(ToneSet(paths: []), roundTrips: two) == nil)
        // A noise-free procedure: every step identical, the distance exact.
        let same = RoundTripTimes(samples: (0..<10).map { .init(channel: UInt8($0 + 2), halfNanoseconds: 80) })
        #expect(abs(RoundTripTimeEstimator().estimate(same)!.distance - 80 * metresPerHalfNs) < 1e-12)
        // Phase estimators ignore round trips: the default `estimate(_:roundTrips:)` is the tones'.
        #expect(PhaseSlopeEstimator(variant: .kay).estimate(ToneSet(paths: [[]]), roundTrips: same) == nil)
    }

    /// Tones of a single path at `distance` (round-trip phase −4πfd/c) on the 72 channels.
    func tones(_ distance: Double, reflection: (excess: Double, amplitude: Double)? = nil) -> ToneSet {
        ToneSet(paths: [Ranging.allowedChannels.map { k in
            let f = Ranging.frequency(channel: k)
            var h = Complex(phase: -2 * Double.pi * f * distance / Ranging.speedOfLight)
            if let r = reflection { h += Complex(phase: -2 * Double.pi * f * (distance + r.excess) / Ranging.speedOfLight) * r.amplitude }
            return ToneSet.Tone(channel: k, value: h * h)
        }])
    }

    /// PBR reads 160 m as 10.1 m; RTT, unambiguous, puts it back.
    @Test func timingResolvesTheAmbiguity() throws {
        var rng = SeededGenerator(seed: 43, stream: 1)
        let truth = 160.0
        let e = try #require(CombinedEstimator().estimate(tones(truth), roundTrips: procedure(distance: truth, sigma: 40, steps: 72, rng: &rng)))
        let phaseOnly = try #require(MultipathFitEstimator().estimate(tones(truth)))
        #expect(abs(phaseOnly.distance - (truth - Ranging.ambiguityRange)) < 0.01)
        #expect(abs(e.distance - truth) < 0.01)
        #expect(e.method == .combined)
    }

    /// Where the phase fit is right, the combined estimate is the phase fit's, to the bit.
    @Test func agreeingEstimatesKeepThePhase() throws {
        var rng = SeededGenerator(seed: 44, stream: 1)
        for d in [0.4, 3.0, 25.0] {
            let t = tones(d, reflection: (4, 0.5))
            let pbr = try #require(MultipathFitEstimator().estimate(t))
            let both = try #require(CombinedEstimator().estimate(t, roundTrips: procedure(distance: d, sigma: 40, steps: 72, rng: &rng)))
            #expect(both.distance == pbr.distance && both.quality == pbr.quality)
        }
    }

    /// A phase fit with a component where the timing puts the first path, shorter than the one it
    /// chose: a missed first path, and that component is taken.
    @Test func anEarlierComponentAtTheTimingIsTaken() throws {
        struct Fit: DistanceEstimator {
            var minimumChannels: Int { 1 }
            var combining: PathCombining { .best }
            func estimatePath(_ tones: [ToneSet.Tone], diagnostics: Bool) -> DistanceEstimate? { nil }
            func estimate(_ tones: ToneSet, diagnostics: Bool) -> DistanceEstimate? {
                var e = DistanceEstimate(distance: 15, quality: 0.4, method: .multipathFit, toneCount: 72)
                var d = EstimationDiagnostics()
                d.components = [.init(distance: 6.05, amplitude: 0.3), .init(distance: 15, amplitude: 1)]
                e.diagnostics = diagnostics ? d : nil
                return e
            }
        }
        var rng = SeededGenerator(seed: 45, stream: 1)
        let times = procedure(distance: 6, sigma: 40, steps: 72, rng: &rng)
        let e = try #require(CombinedEstimator(phase: Fit()).estimate(tones(15), roundTrips: times))
        #expect(e.distance == 6.05 && e.quality == 0.4 && e.method == .combined)
    }

    /// Without such a component the phase stands, longer or shorter than the timing: a
    /// near-equal reflection in opposite phase pulls the correlator's peak tens of metres early,
    /// so a short timing is no proof the tones are wrong.
    @Test func thePhaseStandsAgainstTheTimingAlone() throws {
        var rng = SeededGenerator(seed: 45, stream: 1)
        let truth = 6.0
        let times = procedure(distance: truth, sigma: 40, steps: 72, rng: &rng)
        let kay = CombinedEstimator(phase: PhaseSlopeEstimator(variant: .kay))
        let long = try #require(kay.estimate(tones(truth + 9), roundTrips: times))
        #expect(abs(long.distance - (truth + 9)) < 0.01 && long.standardError == nil)
        let short = try #require(kay.estimate(tones(truth - 2), roundTrips: times))
        #expect(abs(short.distance - (truth - 2)) < 0.01)
        // Without tones, the timing is the estimate.
        let timed = try #require(kay.estimate(ToneSet(paths: [[]]), roundTrips: times))
        #expect(timed.method == .roundTripTime && abs(timed.distance - truth) < 0.3)
    }
}
