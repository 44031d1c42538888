import Foundation

/// Cramér–Rao lower bound on the standard deviation of an unbiased distance estimate from
/// round-trip tone phases (reference §2.5).
///
/// Model (single path, tone k): φ_k = φ0 − (4π/c)·f_k·d + w_k, w_k ~ N(0, σ_k²) independent, φ0 a
/// nuisance. The Fisher information for d (with φ0 eliminated) is
/// J = (4π/c)² · Σ_k (f_k − f̄_w)²/σ_k², with f̄_w the 1/σ²-weighted mean frequency, so
/// **σ_d ≥ (c/4π) / √(Σ_k (f_k − f̄_w)²/σ_k²)**, which for equal σ² is (c/4π)·σ/√Σ(f − f̄)².
///
/// Phase variance at high per-tone SNR ρ (signal power / complex noise power):
/// - one-sided (a single noisy measurement, e.g. the IPT initiator PCT with a clean reflector):
///   σ² = 1/(2ρ);
/// - round trip (`PCT_I·PCT_R`, both noisy): σ² = 1/(2ρ_I) + 1/(2ρ_R), i.e. 1/ρ when equal.
///
/// M independent antenna paths or procedures divide σ_d by √M. Worked numbers for the 72 CS
/// channels (Σ(f − f̄)² = 34,445 MHz²): 1.29 cm two-sided / 0.91 cm one-sided at 20 dB, 4.1 cm /
/// 2.9 cm at 10 dB. The bound ignores multipath bias, outliers below the SNR threshold and
/// hardware delays, which dominate real errors.
public enum CramerRaoBound {
    /// How noise enters the tone phases.
    public enum NoiseModel: Sendable, Equatable {
        /// Round-trip product of two noisy PCTs with the same per-tone SNR: σ² = 1/(2ρ) + 1/(2ρ) = 1/ρ.
        case twoSided
        /// One noisy measurement: σ² = 1/(2ρ).
        case oneSided
    }

    /// Linear power ratio of a value in dB.
    public static func linear(dB: Double) -> Double { pow(10, dB / 10) }

    /// Phase variance (rad²) of one tone at linear per-tone SNR ρ.
    public static func phaseVariance(snr: Double, noise: NoiseModel = .twoSided) -> Double {
        switch noise {
        case .twoSided: 1 / snr
        case .oneSided: 1 / (2 * snr)
        }
    }

    /// Phase variance (rad²) of the round-trip product with different SNRs at the two ends.
    public static func phaseVariance(initiatorSNR: Double, reflectorSNR: Double) -> Double {
        1 / (2 * initiatorSNR) + 1 / (2 * reflectorSNR)
    }

    /// Σ (f − f̄)² in Hz² for frequencies in Hz.
    public static func frequencySpread(_ frequencies: [Double]) -> Double {
        guard !frequencies.isEmpty else { return 0 }
        let mean = frequencies.reduce(0, +) / Double(frequencies.count)
        return frequencies.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    }

    /// σ_d in metres for tones at `frequencies` (Hz) with per-tone phase variances (rad²), over
    /// `paths` independent paths/procedures. Infinite if fewer than two distinct frequencies.
    public static func distanceStandardDeviation(frequencies: [Double], phaseVariances: [Double], paths: Int = 1) -> Double {
        precondition(frequencies.count == phaseVariances.count)
        var sw = 0.0, swf = 0.0
        for (f, v) in zip(frequencies, phaseVariances) { sw += 1 / v; swf += f / v }
        guard sw > 0 else { return .infinity }
        let mean = swf / sw
        var info = 0.0
        for (f, v) in zip(frequencies, phaseVariances) { info += (f - mean) * (f - mean) / v }
        guard info > 0, paths > 0 else { return .infinity }
        return Ranging.speedOfLight / (4 * Double.pi) / (info * Double(paths)).squareRoot()
    }

    /// σ_d in metres for the same phase variance (rad²) on every tone.
    public static func distanceStandardDeviation(frequencies: [Double], phaseVariance: Double, paths: Int = 1) -> Double {
        let spread = frequencySpread(frequencies)
        guard spread > 0, paths > 0 else { return .infinity }
        return Ranging.speedOfLight / (4 * Double.pi) * (phaseVariance / (spread * Double(paths))).squareRoot()
    }

    /// σ_d in metres at linear per-tone SNR `snr`.
    public static func distanceStandardDeviation(frequencies: [Double], snr: Double, noise: NoiseModel = .twoSided,
                                                 paths: Int = 1) -> Double {
        distanceStandardDeviation(frequencies: frequencies, phaseVariance: phaseVariance(snr: snr, noise: noise), paths: paths)
    }

    /// σ_d in metres at per-tone SNR `snrDB` (dB).
    public static func distanceStandardDeviation(frequencies: [Double], snrDB: Double, noise: NoiseModel = .twoSided,
                                                 paths: Int = 1) -> Double {
        distanceStandardDeviation(frequencies: frequencies, snr: linear(dB: snrDB), noise: noise, paths: paths)
    }

    /// σ_d in metres for the round trip with SNRs ρ_I, ρ_R (linear) at the two ends.
    public static func distanceStandardDeviation(frequencies: [Double], initiatorSNR: Double, reflectorSNR: Double,
                                                 paths: Int = 1) -> Double {
        distanceStandardDeviation(frequencies: frequencies,
                                  phaseVariance: phaseVariance(initiatorSNR: initiatorSNR, reflectorSNR: reflectorSNR),
                                  paths: paths)
    }

    /// The frequencies (Hz) of the 72 allowed CS channels, 2…22 and 26…76.
    public static var allowedChannelFrequencies: [Double] { Ranging.allowedChannels.map { Ranging.frequency(channel: $0) } }
}
