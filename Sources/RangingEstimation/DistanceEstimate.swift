/// One distance estimate from the tones (or the round-trip times) of one procedure, or of one
/// antenna path of it.
///
/// `distance` is the one-way distance in metres, never negative. A phase-based estimate is in
/// `[0, Ranging.ambiguityRange)` (≈ 149.9 m): phase-based ranging at 1 MHz spacing cannot tell
/// d from d + 149.9 m; round-trip timing has no such limit.
///
/// `quality` is a confidence figure in 0…1, the product of two factors:
/// - the **fraction of good channels**: distinct good channels used / 72 (capped at 1), since
///   missing channels shrink aperture and raise sidelobes;
/// - the **model fit** of the estimator, which is 1 for a clean single path and drops with noise
///   and multipath. Phase slope and IFFT use the single-path coherence
///   `|Σ z_k·e^{+j2π f_k τ̂}| / Σ |z_k|` at the estimated round-trip delay τ̂ = 2d/c (≈ e^{−σ²/2}
///   for phase noise σ², ≈ 0.995 at 20 dB); the super-resolution estimator uses the fraction of
///   the tones' energy its multi-component model explains, 1 − ‖z − Âĉ‖²/‖z‖².
/// For a combined estimate over antenna paths it is the mean quality of the paths that agreed.
public struct DistanceEstimate: Sendable, Equatable {
    /// Which estimator produced the value.
    public enum Method: String, Sendable, Equatable, CaseIterable {
        /// Least-squares line through the unwrapped phase versus frequency (Zephyr sample, §1.3).
        case leastSquaresPhaseSlope
        /// Kay's weighted phase-difference estimator (optimal weights; attains the CRLB).
        case kayPhaseDifference
        /// Uniformly weighted adjacent-pair phasor average, exactly as Nordic `cs_de` (§1.1).
        case uniformPhaseDifference
        /// IFFT magnitude profile with earliest-peak search and parabolic interpolation (§1.1).
        case ifft
        /// ESPRIT super-resolution with forward-backward spatial smoothing; earliest component.
        case esprit
        /// Maximum-likelihood fit of one to three one-way paths to all tones of all antenna paths.
        case multipathFit
        /// Robust mean of the mode-1/3 steps' round-trip times (`RoundTripTimeEstimator`).
        case roundTripTime
        /// Phase-based ranging with round-trip timing resolving its ambiguity and its missed first
        /// paths (`CombinedEstimator`).
        case combined
    }

    /// One-way distance in metres, in `[0, Ranging.ambiguityRange)`.
    public var distance: Double
    /// Confidence in 0…1 (see the type's documentation).
    public var quality: Double
    public var method: Method
    /// Distinct good channels used, summed over the antenna paths that contributed.
    public var toneCount: Int
    /// Number of antenna paths that contributed.
    public var pathCount: Int
    /// Extra detail for tools and plots; `nil` unless asked for (`estimate(_:diagnostics: true)`).
    public var diagnostics: EstimationDiagnostics?
    /// The estimate's own standard error in metres, where the estimator knows it (round-trip
    /// timing: the steps' spread over √N).
    public var standardError: Double?

    public init(distance: Double, quality: Double, method: Method, toneCount: Int, pathCount: Int = 1,
                diagnostics: EstimationDiagnostics? = nil) {
        self.distance = distance
        self.quality = quality
        self.method = method
        self.toneCount = toneCount
        self.pathCount = pathCount
        self.diagnostics = diagnostics
    }
}
