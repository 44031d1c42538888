/// A distance estimator: phase-based ranging from a procedure's tones, or (the timing
/// estimators, `RoundTripTimeEstimator` and `CombinedEstimator`) from its round-trip times too.
///
/// Conformers estimate each antenna path on its own (`estimatePath`) and the protocol extension
/// combines the paths with `combining` (see `PathCombining`). The usability rule, as Nordic
/// `cs_de` (reference §1.1, `TONE_QI_OK_TONE_COUNT_THRESHOLD`): only tones with `isGood` count,
/// repeated channels of one path are averaged first, and a path needs at least
/// `minimumChannels` (15 by default) **distinct** good channels; the procedure yields `nil` when
/// no path is usable. (Nordic counts tones; counting distinct channels is slightly stricter,
/// since a repeated channel adds no aperture.)
///
/// Tones no controller rated (quality unavailable) are judged first by `ToneScreening`.
///
/// Phase-based results are one-way distances in `[0, Ranging.ambiguityRange)` ≈ [0, 149.9) m.
public protocol DistanceEstimator: Sendable {
    /// Distinct good channels a path needs before it is estimated.
    var minimumChannels: Int { get }
    /// How per-path estimates are combined.
    var combining: PathCombining { get }
    /// The estimate of one antenna path's tones, or `nil` if the path is unusable.
    func estimatePath(_ tones: [ToneSet.Tone], diagnostics: Bool) -> DistanceEstimate?
    /// The estimate of a whole procedure: every path estimated, then combined; `nil` if no path is usable.
    func estimate(_ tones: ToneSet) -> DistanceEstimate?
    /// As `estimate(_:)`, with `EstimationDiagnostics` attached when `diagnostics` is true.
    func estimate(_ tones: ToneSet, diagnostics: Bool) -> DistanceEstimate?
    /// The estimate of a procedure from its tones and its mode-1/3 round-trip times; a
    /// phase-based estimator ignores the times (the default), a timing one the tones.
    func estimate(_ tones: ToneSet, roundTrips: RoundTripTimes, diagnostics: Bool) -> DistanceEstimate?
}

extension DistanceEstimator {
    public func estimate(_ tones: ToneSet) -> DistanceEstimate? { estimate(tones, diagnostics: false) }

    public func estimate(_ tones: ToneSet, roundTrips: RoundTripTimes, diagnostics: Bool) -> DistanceEstimate? {
        estimate(tones, diagnostics: diagnostics)
    }

    /// As `estimate(_:roundTrips:diagnostics:)` without diagnostics.
    public func estimate(_ tones: ToneSet, roundTrips: RoundTripTimes) -> DistanceEstimate? {
        estimate(tones, roundTrips: roundTrips, diagnostics: false)
    }

    /// As `estimate(_:)`, with `EstimationDiagnostics` attached when `diagnostics` is true
    /// (including every path's own estimate in `diagnostics.paths`).
    public func estimate(_ tones: ToneSet, diagnostics: Bool) -> DistanceEstimate? {
        let tones = ToneScreening.default.judged(tones)
        if tones.paths.count == 1 {
            return estimatePath(tones.paths[0], diagnostics: diagnostics)
        }
        let perPath = tones.paths.map { estimatePath($0, diagnostics: diagnostics) }
        guard var combined = combining.combine(perPath) else { return nil }
        if diagnostics {
            var d = EstimationDiagnostics()
            d.paths = perPath
            combined.diagnostics = d
        }
        return combined
    }
}
