@testable import EmulatorMath
import Foundation
@testable import RangingEstimation
import Testing

/// The multipath fit: exact on noise-free channels of one and two paths (a stronger late path
/// included); at the Cramér–Rao bound in free space; and on generated families it was not
/// tuned on (seeds of their own): two-ray channels with excess 1–5 m (P90 under 0.15 m and a
/// third of Kay's and IFFT's), the `light` channel (within 30 % of its information limit),
/// reflections 0.5–1 m longer (better than the IFFT), dense multipath of 9–14 taps (better
/// than Kay and the IFFT), and a quality whose rule holds on all of them.
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

    /// Free space over 0.5–40 m at 20 dB, 400 procedures on a seed of its own: within 15 % of
    /// the two-sided Cramér–Rao bound (1.29 cm). A spurious second path in one procedure in a
    /// hundred, as a model order by the plain BIC gave, fails it.
    @Test func freeSpaceIsAtTheBound() {
        var rng = SplitMix64(seed: 2)
        let crlb = CramerRaoBound.distanceStandardDeviation(frequencies: CramerRaoBound.allowedChannelFrequencies, snrDB: 20, noise: .twoSided)
        var errors: [Double] = []
        for i in 0..<400 {
            let d = 0.5 + 39.5 * Double(i) / 399
            let e = MultipathFitEstimator().estimate(ToneSimulator.singlePath(distance: d, snrDB: 20, rng: &rng))
            errors.append((e?.distance ?? .infinity) - d)
        }
        #expect(errors.rms < 1.15 * crlb && errors.rms > 0.85 * crlb, "RMSE \(errors.rms) m, CRLB \(crlb) m")
    }

    /// Two-ray channels drawn at random: the direct path at 1–30 m, a reflection `excess` metres
    /// longer with amplitude in `amplitude` at a uniform phase, per-tone SNR in `snr`.
    static func family(count: Int, seed: UInt64, excess: ClosedRange<Double> = 1...5, amplitude: ClosedRange<Double> = 0...0.7,
                       snr: ClosedRange<Double> = 25...25) -> [(tones: ToneSet, truth: Double)] {
        var rng = SplitMix64(seed: seed)
        func draw(_ r: ClosedRange<Double>) -> Double { r.lowerBound + (r.upperBound - r.lowerBound) * rng.uniform() }
        return (0..<count).map { _ in
            let d = draw(1...30)
            let x = draw(excess)
            let reflection = Complex(phase: 2 * Double.pi * rng.uniform()) * draw(amplitude)
            let snrDB = draw(snr)
            return (tones([Ray(distance: d, amplitude: .one), Ray(distance: d + x, amplitude: reflection)], snrDB: snrDB, rng: &rng), d)
        }
    }

    /// Dense multipath (TGn-like, not the TGn tables): taps every 10 ns (3 m) up to 80–140 ns with
    /// exponentially falling mean power (RMS delay spread 10–30 ns), each Rayleigh, the first
    /// Ricean with K = 0 dB; 20 dB.
    static func denseFamily(count: Int, seed: UInt64) -> [(tones: ToneSet, truth: Double)] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let d = 1 + 19 * rng.uniform()
            let spread = 10e-9 + 20e-9 * rng.uniform()
            let taps = 9 + Int(6 * rng.uniform())
            var rays: [Ray] = []
            for l in 0..<taps {
                let power = exp(-Double(l) * 10e-9 / spread)
                var gain = rng.complexGaussian(variance: l == 0 ? power / 2 : power)
                if l == 0 { gain += Complex((power / 2).squareRoot()) }
                rays.append(Ray(distance: d + Double(l) * 10e-9 * Ranging.speedOfLight, amplitude: gain))
            }
            // 20 dB against the whole channel's power (the simulator's SNR is against the first path's).
            let total = rays.reduce(0) { $0 + $1.amplitude.magnitudeSquared }
            let scaled = rays.map { Ray(distance: $0.distance, amplitude: $0.amplitude * (1 / total.squareRoot())) }
            let first = scaled[0].amplitude.magnitudeSquared
            return (tones(scaled, snrDB: 20 + 10 * log10(max(first, 1e-12)), rng: &rng), d)
        }
    }

    static func errors(_ estimator: some DistanceEstimator, _ cases: [(tones: ToneSet, truth: Double)]) -> [Double] {
        cases.map { abs(Ranging.circularDifference(estimator.estimate($0.tones)?.distance ?? .infinity, $0.truth)) }
    }

    @Test(arguments: [(UInt64(3), 25.0), (11, 25), (12, 20)])
    func aGeneratedTwoRayFamilyIsResolved(seed: UInt64, snr: Double) {
        let cases = Self.family(count: 150, seed: seed, snr: snr...snr)
        let ml = Self.errors(MultipathFitEstimator(), cases).percentile(0.9)
        let kay = Self.errors(PhaseSlopeEstimator(variant: .kay), cases).percentile(0.9)
        let ifft = Self.errors(IFFTEstimator(), cases).percentile(0.9)
        #expect(ml < 0.15 && ml < kay / 3 && ml < ifft / 3, "P90: ml \(ml) m, kay \(kay) m, ifft \(ifft) m")
    }

    /// One family's estimates by the multipath fit, with their errors and qualities, made once.
    struct Scored {
        var errors: [Double] = []
        var qualities: [Double] = []
        init(_ cases: [(tones: ToneSet, truth: Double)]) {
            for (tones, truth) in cases {
                let e = MultipathFitEstimator().estimate(tones)
                errors.append(abs(Ranging.circularDifference(e?.distance ?? .infinity, truth)))
                qualities.append(e?.quality ?? 0)
            }
        }
        /// The errors of the estimates whose quality is at least `q`.
        func errors(quality q: Double) -> [Double] { zip(errors, qualities).filter { $0.1 >= q }.map(\.0) }
    }

    static let light = family(count: 200, seed: 21, excess: 1.5...1.5, amplitude: 0.3...0.3, snr: 20...20)
    static let small = family(count: 200, seed: 22, excess: 0.5...1, amplitude: 0...0.7, snr: 20...25)
    static let dense = denseFamily(count: 150, seed: 23)
    static let scored = (light: Scored(light), small: Scored(small), dense: Scored(dense),
                         twoRay: Scored(family(count: 150, seed: 24, snr: 20...25)))

    /// The tool's `light` channel (a reflection 1.5 m longer at 0.3, uniform phase, 20 dB, one
    /// antenna path) is information-limited: an efficient estimator's P90 is 0.145 m
    /// (`TwoPathBound`); the fit stays within 30 % of it, where Kay's phase slope is at 3×.
    @Test func lightMultipathIsNearItsInformationLimit() {
        let bound = TwoPathBound.errorQuantile(0.9, snrDB: 20, excess: 1.5, amplitude: 0.3)
        let ml = Self.scored.light.errors.percentile(0.9)
        let kay = Self.errors(PhaseSlopeEstimator(variant: .kay), Self.light).percentile(0.9)
        #expect(ml < 1.3 * bound && kay > 2 * bound, "P90: ml \(ml) m, kay \(kay) m, bound \(bound) m")
    }

    /// A reflection only 0.5–1 m longer (amplitude up to 0.7, 20–25 dB) is not resolved by
    /// 74 MHz, and the unbiased bound's P90 there is 0.3–0.7 m; the fit still more than halves
    /// the IFFT's median and is below its P90 (measured: 0.049 / 0.27 m against 0.13 / 0.36 m;
    /// 0.056 / 0.22 against 0.14 / 0.36 on 300 draws of another seed).
    @Test func aShortReflectionBeatsTheIFFT() {
        let ml = Self.scored.small.errors, ifft = Self.errors(IFFTEstimator(), Self.small)
        #expect(ml.percentile(0.5) < ifft.percentile(0.5) / 2 && ml.percentile(0.9) < ifft.percentile(0.9),
                "P50/P90: ml \(ml.percentile(0.5))/\(ml.percentile(0.9)) m, ifft \(ifft.percentile(0.5))/\(ifft.percentile(0.9)) m")
    }

    /// Dense multipath (more paths than the model has): the first path placed at the earliest
    /// energy the fit cannot explain beats both the phase slope and the IFFT's earliest peak in
    /// median and 90th percentile (measured: 0.79 / 2.8 m against IFFT 1.1 / 3.3 m, Kay 3.4 / 8 m).
    @Test func denseMultipathBeatsThePhaseSlopeAndTheIFFT() {
        let ml = Self.scored.dense.errors
        for (name, other) in [("kay", Self.errors(PhaseSlopeEstimator(variant: .kay), Self.dense)), ("ifft", Self.errors(IFFTEstimator(), Self.dense))] {
            #expect(ml.percentile(0.5) < other.percentile(0.5) && ml.percentile(0.9) < other.percentile(0.9),
                    "P50/P90: ml \(ml.percentile(0.5))/\(ml.percentile(0.9)) m, \(name) \(other.percentile(0.5))/\(other.percentile(0.9)) m")
        }
    }

    /// The quality's rule, on four families it was not tuned on: **an estimate with quality ≥ 0.5
    /// is within 0.15 m nine times in ten and within 0.3 m 99 times in 100**, whatever the
    /// channel; in a room of more paths than the model has (dense) almost none reach 0.5, and
    /// where reflections are resolvable most do. Measured: P90 0.078 / 0.120 / 0.042 m for
    /// light / short reflections / two-ray with 60 / 42 / 87 % kept; dense 0 of 150.
    @Test func qualityPredictsTheError() {
        for (name, family) in [("light", Self.scored.light), ("short reflection", Self.scored.small), ("two-ray", Self.scored.twoRay), ("dense", Self.scored.dense)] {
            let kept = family.errors(quality: 0.5)
            guard !kept.isEmpty else { continue }
            #expect(kept.percentile(0.9) < 0.15 && kept.percentile(0.99) < 0.3, "\(name): \(kept.count) kept, P90 \(kept.percentile(0.9)) m, P99 \(kept.percentile(0.99)) m")
        }
        #expect(Self.scored.dense.errors(quality: 0.5).count < 15)
        #expect(Self.scored.twoRay.errors(quality: 0.5).count > 100 && Self.scored.light.errors(quality: 0.5).count > 80)
    }

    /// Strong reflections (0.5–5 m longer at 0.3–0.9, 20–25 dB), a family of its own seed: a
    /// reflection of 0.65–0.9 that cancels the direct path inside the band has components many
    /// times the tones' power, and was once called degenerate, so its right two-path fit was
    /// dropped for the one-path fit's metre of bias.
    @Test func aStrongCancellingReflectionIsFittedNotDropped() {
        let cases = Self.family(count: 300, seed: 31, excess: 0.5...5, amplitude: 0.3...0.9, snr: 20...25)
        let ml = Self.errors(MultipathFitEstimator(), cases)
        #expect(ml.percentile(0.99) < 0.4 && ml.percentile(0.9) < 0.12, "P90 \(ml.percentile(0.9)) m, P99 \(ml.percentile(0.99)) m")
    }

    /// `family`'s tones as a controller reports them: each tone rated bad where its round-trip
    /// SNR (the tone's power against the family's noise, as `ToneSimulator` draws it, at
    /// `snrDB` for the direct path alone) is under 10 dB, as the emulated controllers rate.
    static func rated(_ cases: [(tones: ToneSet, truth: Double)], snrDB: Double) -> [(tones: ToneSet, truth: Double)] {
        let floor = pow(10, (10 - snrDB) / 10)
        return cases.map { c in
            (ToneSet(paths: c.tones.paths.map { path in
                path.map { ToneSet.Tone(channel: $0.channel, value: $0.value, isGood: $0.value.magnitude >= floor) }
            }), c.truth)
        }
    }

    /// The same strong reflections at 15 dB, their weakest tones rated bad as a controller
    /// would: the notch where the reflection cancels becomes a gap the one-way tones' signs
    /// carry on across, so the two-path starts must be ranked on the round-trip cost as at a
    /// visible notch (`MultipathFitter.hasNotch`). Measured on three seeds (a procedure without
    /// a distance counts as the worst): P99 1.14, 1.02 and 0.51 m; 3.69, 3.56 and 1.34 m
    /// without the rated notch.
    @Test(arguments: [UInt64(32), 33, 35])
    func aNotchHiddenByRatingStillRanksTheStartsRight(seed: UInt64) {
        let cases = Self.rated(Self.family(count: 300, seed: seed, excess: 0.5...5, amplitude: 0.3...0.9, snr: 15...15), snrDB: 15)
        #expect(cases.contains { $0.tones.paths[0].contains { !$0.isGood } })
        let ml = cases.map { c in MultipathFitEstimator().estimate(c.tones).map { abs(Ranging.circularDifference($0.distance, c.truth)) } ?? .infinity }
        #expect(ml.percentile(0.99) < 1.25, "P90 \(ml.percentile(0.9)) m, P99 \(ml.percentile(0.99)) m")
    }

    /// The search for a first path the fit missed stays inside the reported window [−10 m,
    /// 139.9 m): round-trip tones with a second component 20 m before a path at 1 m on the
    /// 149.9 m ambiguity circle (at 129.9 m, half the first's amplitude, what noise and missing
    /// tones made at 10 dB) were once taken to hold a first path there, reported at 129.9 m.
    @Test func noFirstPathIsSoughtBeforeTheReportedWindow() throws {
        let tones = ToneSet(paths: [Ranging.allowedChannels.map { k in
            let w = 4 * Double.pi * Ranging.frequency(channel: k) / Ranging.speedOfLight
            return ToneSet.Tone(channel: k, value: Complex(phase: -w * 1) + Complex(phase: -w * 129.9 + 0.4) * 0.5)
        }])
        let e = try #require(MultipathFitEstimator().estimate(tones))
        #expect(abs(e.distance - 1) < 0.3, "\(e.distance) m")
    }

    /// A channel whose every tone was rated bad counts as a notch; the same tones all good and
    /// without a dip do not.
    @Test func aRejectedChannelIsANotch() throws {
        var rng = SplitMix64(seed: 6)
        var tones = ToneSimulator.singlePath(distance: 5, snrDB: 30, rng: &rng)
        let clean = try #require(MultipathObservations(tones, minimumChannels: 15))
        #expect(!clean.hasRejectedChannels && !MultipathFitter(data: clean, maxExcess: 40, significance: 0.2).hasNotch())
        tones.paths[0][30].isGood = false
        let rejected = try #require(MultipathObservations(tones, minimumChannels: 15))
        #expect(rejected.hasRejectedChannels && MultipathFitter(data: rejected, maxExcess: 40, significance: 0.2).hasNotch())
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
