import EmulatorMath
import Foundation

/// Distance from the slope of the round-trip phase versus frequency: arg z_k = φ0 − 4π·f_k·d/c,
/// so **d = −slope·c/(4π)** (reference §0.2, §1.1, §1.3).
///
/// Every variant first takes a coarse slope ω0 (radians per MHz) from Nordic's D = 1 phasor sum
/// S = Σ z[n]·conj(z[n−1]) over pairs of *adjacent* channels (the smallest spacing present, if no
/// pair is adjacent). This needs no unwrapping and is unambiguous over the whole 149.9 m range.
/// - `.uniform` stops there: d = −c·arg(S)/(4π·D·Δf), exactly `calculate_dist_d_spaced_kay_f`
///   (§1.1). Its weights are uniform, so at high SNR it telescopes to (φ_last − φ_first) per run
///   of adjacent channels: σ ≈ 5–6× the CRLB on the 72-channel set (two runs, 2–22 and 26–76;
///   measured 6.2× at 20 dB). Kept for comparison with Nordic.
/// - `.kay` (default): Kay's weighted phase averager (S. Kay, "A fast and accurate single
///   frequency estimator", IEEE Trans. ASSP 1989), generalised to an uneven channel set:
///   slope = ω0 + Σ_j W_j·r_j / Σ_k (f_k − f̄)², with r_j the phase difference of consecutive
///   tones j−1, j after removing ω0·(f_j − f_{j−1}) (so the 22→26 gap pair is unambiguous too)
///   and W_j = Σ_{k≥j} (f_k − f̄). These are the weights that make it equal to the least-squares
///   slope to first order, so it attains the CRLB at high SNR. (Summation by parts shows it is
///   in fact *identical* to `.leastSquares` below whenever both unwrap the same way.)
/// - `.leastSquares`: the Zephyr sample's fit (§1.3): sort by frequency, average repeated
///   channels, unwrap, least-squares line. Unwrapping is done on the phase with ω0·f removed:
///   plain unwrapping fails across the 4 MHz gap (channels 23–25) beyond c/(2·4 MHz) ≈ 37.5 m.
///
/// The result is mapped into [0, 149.9) m: a slope that would give a negative distance (e.g. a
/// tiny true distance plus noise, or a true distance above 149.9 m) wraps around instead of
/// being rejected as Nordic does. Quality = single-path coherence × good-channel fraction.
/// Cost: one pass over the tones, one atan2 per tone, no heap allocation (≈ a few µs for 72 tones).
public struct PhaseSlopeEstimator: DistanceEstimator {
    public enum Variant: Sendable, Equatable {
        case leastSquares
        case kay
        case uniform
    }

    public var variant: Variant
    public var minimumChannels: Int
    public var combining: PathCombining

    public init(variant: Variant = .kay, minimumChannels: Int = 15, combining: PathCombining = .default) {
        self.variant = variant
        self.minimumChannels = minimumChannels
        self.combining = combining
    }

    public var method: DistanceEstimate.Method {
        switch variant {
        case .leastSquares: .leastSquaresPhaseSlope
        case .kay: .kayPhaseDifference
        case .uniform: .uniformPhaseDifference
        }
    }

    public func estimatePath(_ tones: [ToneSet.Tone], diagnostics: Bool) -> DistanceEstimate? {
        ChannelGrid.withAveragedTones(tones) { f, z in
            let n = z.count
            guard n >= max(2, minimumChannels) else { return nil }
            guard let s = slope(f, z) else { return nil }
            let d = Ranging.wrap(-s * Ranging.speedOfLight / (4 * Double.pi * Ranging.toneSpacing))
            let q = ChannelGrid.coherence(channels: f, values: z, distance: d) * ChannelGrid.goodFraction(n)
            var e = DistanceEstimate(distance: d, quality: q, method: method, toneCount: n)
            if diagnostics {
                var fm = 0.0
                for i in 0..<n { fm += f[i] }
                fm /= Double(n)
                var acc = Complex.zero
                for i in 0..<n { acc += z[i] * Complex(phase: -s * (f[i] - fm)) }
                var diag = EstimationDiagnostics()
                diag.phaseLine = .init(referenceChannel: fm, intercept: acc.phase, slopePerMHz: s)
                e.diagnostics = diag
            }
            return e
        }
    }

    /// The phase slope in radians per MHz (channel index units).
    @inline(__always)
    private func slope(_ f: UnsafeMutableBufferPointer<Double>, _ z: UnsafeMutableBufferPointer<Complex>) -> Double? {
        let n = z.count
        // Smallest spacing between consecutive channels (1 for any adjacent pair).
        var dMin = Double.infinity
        for i in 1..<n { dMin = min(dMin, f[i] - f[i - 1]) }
        var sum = Complex.zero
        for i in 1..<n where f[i] - f[i - 1] == dMin { sum += z[i] * z[i - 1].conjugate }
        guard sum.magnitudeSquared > 0 else { return nil }
        let w0 = sum.phase / dMin
        if variant == .uniform { return w0 }

        var fm = 0.0
        for i in 0..<n { fm += f[i] }
        fm /= Double(n)
        var sff = 0.0
        for i in 0..<n { sff += (f[i] - fm) * (f[i] - fm) }
        let twoPi = 2 * Double.pi

        switch variant {
        case .kay:
            // Suffix sums W_j = Σ_{k≥j} (f_k − f̄), accumulated from the top down.
            var w = 0.0, acc = 0.0
            var prev = z[n - 1].phase
            for j in stride(from: n - 1, through: 1, by: -1) {
                w += f[j] - fm
                let cur = z[j - 1].phase
                let r = remainder(prev - cur - w0 * (f[j] - f[j - 1]), twoPi)
                acc += w * r
                prev = cur
            }
            return w0 + acc / sff
        default:
            // Unwrap the phase with the coarse slope removed, then fit a line.
            let f0 = f[0]
            var prevPsi = remainder(z[0].phase, twoPi)
            var u = prevPsi
            var sfu = (f[0] - fm) * u
            for i in 1..<n {
                let psi = z[i].phase - w0 * (f[i] - f0)
                u += remainder(psi - prevPsi, twoPi)
                prevPsi = psi
                sfu += (f[i] - fm) * u
            }
            return w0 + sfu / sff
        }
    }
}
