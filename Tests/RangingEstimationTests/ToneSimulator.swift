@testable import EmulatorMath
import Foundation
@testable import RangingEstimation
import TestSupport

/// Builds round-trip tones for tests: per path H_k = Σ_l a_l·e^{−j2π f_k τ_l}, τ_l = d_l/c.
/// With an SNR, the round trip is simulated as the product of two noisy PCTs with random LO
/// phases, (H·e^{jθ} + n_R)(H·e^{−jθ} + n_I), each at per-tone SNR ρ relative to |a_0|² — the
/// two-sided noise of reference §2.5/§3.1, whose phase variance is 1/ρ. Without an SNR, z = H²·e^{jφ0}.
struct ToneSimulator {
    struct Ray { var distance: Double; var amplitude: Complex }

    static let channels = Ranging.allowedChannels

    static func path(rays: [Ray], snrDB: Double?, channels: [UInt8] = channels, commonPhase: Double = 0.7,
                     rng: inout SplitMix64) -> [ToneSet.Tone] {
        let noiseVar = snrDB.map { rays[0].amplitude.magnitudeSquared / pow(10, $0 / 10) }
        return channels.map { k in
            let f = Ranging.frequency(channel: k)
            var h = Complex.zero
            for r in rays { h += r.amplitude * Complex(phase: -2 * Double.pi * f * r.distance / Ranging.speedOfLight) }
            var z: Complex
            if let v = noiseVar {
                let theta = 2 * Double.pi * rng.uniform()
                let lo = Complex(phase: theta)
                z = (h * lo + rng.complexGaussian(variance: v)) * (h * lo.conjugate + rng.complexGaussian(variance: v))
            } else {
                z = h * h * Complex(phase: commonPhase)
            }
            return ToneSet.Tone(channel: k, value: z)
        }
    }

    static func singlePath(distance: Double, snrDB: Double?, rng: inout SplitMix64) -> ToneSet {
        ToneSet(paths: [path(rays: [Ray(distance: distance, amplitude: .one)], snrDB: snrDB, rng: &rng)])
    }
}

extension Array where Element == Double {
    var rms: Double { (reduce(0) { $0 + $1 * $1 } / Double(count)).squareRoot() }
    func percentile(_ p: Double) -> Double {
        let s = sorted()
        let i = Swift.min(s.count - 1, Swift.max(0, Int((p * Double(s.count)).rounded(.up)) - 1))
        return s[i]
    }
}
