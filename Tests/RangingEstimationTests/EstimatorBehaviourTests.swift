@testable import EmulatorMath
@testable import RangingEstimation
import Testing
import TestSupport

/// Usability rules, path combination, ambiguity wrapping and the building blocks.
struct EstimatorBehaviourTests {
    static let estimators: [any DistanceEstimator] = [
        PhaseSlopeEstimator(variant: .kay), PhaseSlopeEstimator(variant: .leastSquares),
        PhaseSlopeEstimator(variant: .uniform), IFFTEstimator(), ESPRITEstimator(),
    ]

    func tones(_ d: Double, channels: [UInt8] = Ranging.allowedChannels) -> [ToneSet.Tone] {
        var rng = SplitMix64(seed: 3)
        return ToneSimulator.path(rays: [.init(distance: d, amplitude: .one)], snrDB: nil, channels: channels, rng: &rng)
    }

    @Test func tooFewGoodTonesGiveNil() {
        let few = ToneSet(paths: [tones(4, channels: Array(30...43))]) // 14 channels
        var bad = tones(4)
        for i in bad.indices where i >= 14 { bad[i].isGood = false }
        for e in Self.estimators {
            #expect(e.estimate(few) == nil)
            #expect(e.estimate(ToneSet(paths: [bad])) == nil)
            #expect(e.estimate(ToneSet(paths: [])) == nil)
            #expect(e.estimate(ToneSet(paths: [tones(4, channels: Array(30...44))])) != nil) // 15 is enough
        }
    }

    @Test func tonesMarkedNotGoodAreIgnored() throws {
        var path = tones(7.5)
        // Garbage on 20 channels, flagged bad: must not move the estimate.
        for i in stride(from: 0, to: path.count, by: 3) {
            path[i].value = Complex(phase: Double(i) * 1.7) * 3
            path[i].isGood = false
        }
        for e in Self.estimators {
            let r = try #require(e.estimate(ToneSet(paths: [path])))
            #expect(abs(r.distance - 7.5) < 0.02, "\(r.method): \(r.distance)")
            #expect(r.toneCount == 48)
        }
    }

    @Test func repeatedChannelsAreAveraged() throws {
        var rng = SplitMix64(seed: 5)
        let a = ToneSimulator.path(rays: [.init(distance: 2, amplitude: .one)], snrDB: 20, rng: &rng)
        let b = ToneSimulator.path(rays: [.init(distance: 2, amplitude: .one)], snrDB: 20, rng: &rng)
        let e = try #require(PhaseSlopeEstimator().estimate(ToneSet(paths: [a + b])))
        #expect(e.toneCount == 72)
        #expect(abs(e.distance - 2) < 0.05)
    }

    @Test func pathsAreCombined() throws {
        var rng = SplitMix64(seed: 9)
        let good = (0..<3).map { _ in ToneSimulator.path(rays: [.init(distance: 12, amplitude: .one)], snrDB: 20, rng: &rng) }
        // A fourth path dominated by a strong late "reflection": an outlier the robust mean drops.
        let outlier = ToneSimulator.path(rays: [.init(distance: 15, amplitude: .one)], snrDB: 20, rng: &rng)
        var unusable = good[0]
        for i in unusable.indices { unusable[i].isGood = false }
        let set = ToneSet(paths: good + [outlier, unusable])
        for e in Self.estimators {
            let r = try #require(e.estimate(set, diagnostics: true))
            // Nordic's uniform weights are ≈ 6× the CRLB: a looser bound for it.
            let tol = r.method == .uniformPhaseDifference ? 0.2 : 0.05
            #expect(abs(r.distance - 12) < tol, "\(r.method): \(r.distance)")
            #expect(r.pathCount == 3)
            #expect(r.toneCount == 3 * 72)
            #expect(r.diagnostics?.paths?.count == 5)
            #expect(r.diagnostics?.paths?[4] == nil)
        }
        let median = try #require(PhaseSlopeEstimator(combining: .median).estimate(set))
        #expect(abs(median.distance - 12) < 0.05 && median.pathCount == 4)
        let best = try #require(PhaseSlopeEstimator(combining: .best).estimate(set))
        #expect(best.pathCount == 1)
        // Averaging M agreeing paths: the combined RMSE follows the M-path CRLB.
        var errors: [Double] = []
        for _ in 0..<200 {
            let paths = (0..<4).map { _ in ToneSimulator.path(rays: [.init(distance: 6, amplitude: .one)], snrDB: 20, rng: &rng) }
            errors.append(PhaseSlopeEstimator().estimate(ToneSet(paths: paths))!.distance - 6)
        }
        let bound = CramerRaoBound.distanceStandardDeviation(frequencies: CramerRaoBound.allowedChannelFrequencies,
                                                             snrDB: 20, paths: 4)
        #expect(errors.rms / bound < 1.25)
        // Paths straddling the wrap point (0.02 m and 149.88 m) combine to ≈ 0, not ≈ 75 m.
        let near = ToneSet(paths: [tones(0.05), tones(Ranging.ambiguityRange - 0.01)])
        let w = try #require(PhaseSlopeEstimator().estimate(near))
        #expect(abs(Ranging.circularDifference(w.distance, 0.02)) < 0.01)
    }

    /// Beyond the ambiguity range an estimate aliases back into [0, 139.9) m; a true distance
    /// whose alias lands in the last 10 m before the wrap reads as a close accessory (0 m).
    @Test(arguments: [150.0, 160.0, 200.0, 289.0])
    func distancesBeyondTheAmbiguityRangeWrap(distance: Double) throws {
        let expected = distance.truncatingRemainder(dividingBy: Ranging.ambiguityRange)
        for e in Self.estimators {
            let r = try #require(e.estimate(ToneSet(paths: [tones(distance)])))
            #expect(r.distance >= 0 && r.distance < Ranging.ambiguityRange - Ranging.nearMargin)
            #expect(abs(Ranging.circularDifference(r.distance, expected)) < 0.02, "\(r.method): \(r.distance)")
        }
    }

    @Test func wrapHelpers() {
        #expect(abs(Ranging.ambiguityRange - 149.896229) < 1e-6)
        #expect(Ranging.wrap(-0.1) == 0)  // a close accessory, not one 149.8 m away
        #expect(Ranging.wrap(Ranging.ambiguityRange - 0.1) == 0)
        #expect(abs(Ranging.wrap(Ranging.ambiguityRange - Ranging.nearMargin - 0.1) - (Ranging.ambiguityRange - Ranging.nearMargin - 0.1)) < 1e-9)
        #expect(abs(Ranging.wrap(Ranging.ambiguityRange + 1) - 1) < 1e-9)
        #expect(abs(Ranging.circularDifference(0.1, Ranging.ambiguityRange - 0.1) - 0.2) < 1e-9)
    }

    @Test func diagnosticsOnlyWhenAsked() throws {
        let set = ToneSet(paths: [tones(3)])
        #expect(IFFTEstimator().estimate(set)?.diagnostics == nil)
        let i = try #require(IFFTEstimator().estimate(set, diagnostics: true)?.diagnostics)
        #expect(i.ifftMagnitude?.count == 512)
        let bin = try #require(i.firstPathBin)
        #expect(abs(bin * IFFTEstimator().binSize - 3) < 0.02)
        let p = try #require(PhaseSlopeEstimator().estimate(set, diagnostics: true)?.diagnostics?.phaseLine)
        #expect(abs(-p.slopePerMHz * Ranging.speedOfLight / (4 * Double.pi * 1e6) - 3) < 1e-6)
        let s = try #require(ESPRITEstimator().estimate(set, diagnostics: true)?.diagnostics?.components)
        #expect(s.count >= 1)
    }

    @Test func fftMatchesTheDFT() {
        let n = 16
        let fft = FFT(size: n)
        var rng = SplitMix64(seed: 1)
        let x = (0..<n).map { _ in Complex(rng.gaussian(), rng.gaussian()) }
        var re = x.map(\.re), im = x.map(\.im)
        fft.transform(re: &re, im: &im, inverse: true)
        for m in 0..<n {
            var s = Complex.zero
            for k in 0..<n { s += x[k] * Complex(phase: 2 * Double.pi * Double(k * m) / Double(n)) }
            #expect((s - Complex(re[m], im[m])).magnitude < 1e-9)
        }
    }

    @Test func hermitianEigenAndSmallEigenvalues() {
        var rng = SplitMix64(seed: 2)
        let n = 7
        var b = ComplexMatrix(rows: n, cols: n)
        for i in 0..<n { for j in 0..<n { b[i, j] = Complex(rng.gaussian(), rng.gaussian()) } }
        let a = ComplexMatrix.adjointProduct(b, b)
        let (values, vectors) = ComplexMatrix.hermitianEigen(a)
        for j in 0..<n {
            for i in 0..<n {
                var av = Complex.zero
                for k in 0..<n { av += a[i, k] * vectors[k, j] }
                #expect((av - vectors[i, j] * values[j]).magnitude < 1e-8 * values[0])
            }
            if j > 0 { #expect(values[j] <= values[j - 1]) }
        }
        // Eigenvalues of an upper-triangular matrix are its diagonal.
        var t = ComplexMatrix(rows: 3, cols: 3)
        let diag = [Complex(phase: 0.2), Complex(phase: 0.25), Complex(phase: -1)]
        for i in 0..<3 { t[i, i] = diag[i]; for j in (i + 1)..<3 { t[i, j] = Complex(0.3, -0.1) } }
        let ev = ComplexMatrix.eigenvalues(t)
        for d in diag { #expect(ev.contains { ($0 - d).magnitude < 1e-9 }) }
    }
}
