import EmulatorMath
import RadioWorld
import RangingEstimation
import ToolJSON

/// The closing figures of a loopback run: how many procedures gave a distance, the raw
/// estimates' mean error, RMSE and 90th-percentile absolute error against truth (EmulatorMath's
/// `Quantile`: linear interpolation), the smoothed distances' RMSE and 90th percentile, and the
/// bounds they are held to. The Cramér-Rao bound for one procedure at this SNR over the 72
/// channels and N_AP paths (two-sided noise: both devices' measurements add noise). On a
/// two-ray channel the single-path bound is not the limit: the summary adds the 90th
/// percentile of |error| an efficient estimator would have on this run's own reflections
/// (`TwoPathBound` at each procedure's realization, the mixture over the run; the antenna
/// paths see the same reflection and add information as independent noise does). A smoothed
/// distance that pooled K procedures of a still scene is held to the same bounds over √K.
struct LoopbackSummary {
    var procedures: Int
    var estimated: Int
    var meanError: Double?
    var rmse: Double?
    var p90: Double?
    var smoothedRMSE: Double?
    var smoothedP90: Double?
    var crlb: Double
    /// An efficient estimator's 90th percentile of |error| on this run's reflections, metres.
    var twoPathP90: Double?
    /// The bound the smoothed distances are held to: the 90th percentile of |error| over their
    /// procedures of the two-path bound (or, without a reflection, the CRLB) over √K for K pooled procedures.
    var smoothedBoundP90: Double?
    /// For a run that timed round trips with a timing estimator: the RMS over its procedures of
    /// `RoundTripTimeBound` for each one's usable steps, metres.
    var rttBound: Double?

    /// `twoPathSigmas[i]`: the two-path bound's σ (already over √N_AP) at row i's realization,
    /// nil where the channel has no single reflection.
    init(rows: [LoopbackCommand.Row], snrDB: Double, antennaPaths: Int, twoPathSigmas: [Double?], rttSigmas: [Double] = []) {
        procedures = rows.count
        let errors = rows.compactMap(\.error)
        estimated = errors.count
        var smoothedErrors: [Double] = []
        var smoothedSigmas: [Double] = []
        crlb = CramerRaoBound.distanceStandardDeviation(frequencies: CramerRaoBound.allowedChannelFrequencies, snrDB: snrDB,
                                                        noise: .twoSided, paths: antennaPaths)
        var rowSigmas: [Double] = []
        for (i, r) in rows.enumerated() where r.error != nil {
            let sigma = i < twoPathSigmas.count ? twoPathSigmas[i] : nil
            if let sigma { rowSigmas.append(sigma) }
            guard let s = r.smoothed, let t = r.truth else { continue }
            smoothedErrors.append(s - t)
            smoothedSigmas.append((sigma ?? crlb) / Double(max(1, r.pooled ?? 1)).squareRoot())
        }
        meanError = errors.isEmpty ? nil : errors.reduce(0, +) / Double(errors.count)
        rmse = Self.rms(errors)
        smoothedRMSE = Self.rms(smoothedErrors)
        p90 = Quantile.ofSorted(errors.map(abs).sorted(), 0.9)
        smoothedP90 = Quantile.ofSorted(smoothedErrors.map(abs).sorted(), 0.9)
        if !rowSigmas.isEmpty, rowSigmas.count == errors.count {
            let bound = TwoPathBound.quantile(0.9, ofAbsoluteErrorsWith: rowSigmas)
            if bound.isFinite { twoPathP90 = bound }
        }
        if !smoothedSigmas.isEmpty {
            let bound = TwoPathBound.quantile(0.9, ofAbsoluteErrorsWith: smoothedSigmas)
            if bound.isFinite { smoothedBoundP90 = bound }
        }
        let finite = rttSigmas.filter(\.isFinite)
        if !finite.isEmpty { rttBound = Self.rms(finite) }
    }

    static func rms(_ v: [Double]) -> Double? { v.isEmpty ? nil : (v.map { $0 * $0 }.reduce(0, +) / Double(v.count)).squareRoot() }

    var text: String {
        var s = "summary: \(estimated) of \(procedures) procedures gave a distance"
        if let meanError, let rmse, let p90 {
            s += "; raw error: mean \(meanError >= 0 ? "+" : "")\(fixed(meanError, 3)) m, RMSE \(fixed(rmse, 3)) m, \(QuantileLabel.p90) of |error| \(fixed(p90, 3)) m"
        }
        if let smoothedRMSE, let smoothedP90 {
            s += "; smoothed: RMSE \(fixed(smoothedRMSE, 3)) m, \(QuantileLabel.p90) of |error| \(fixed(smoothedP90, 3)) m"
            if let smoothedBoundP90 { s += " (\(fixed(smoothedP90 / smoothedBoundP90, 2))x its bound, \(fixed(smoothedBoundP90, 3)) m)" }
        }
        s += "; CRLB \(fixed(crlb, 4)) m"
        if let rmse { s += " (raw RMSE \(fixed(rmse / crlb, 2))x the bound)" }
        if let rttBound {
            s += "; RTT bound \(fixed(rttBound, 4)) m"
            if let rmse { s += " (raw RMSE \(fixed(rmse / rttBound, 2))x the RTT bound)" }
        }
        if let twoPathP90 {
            s += "; two-path bound of this run's reflection: \(QuantileLabel.p90) of |error| \(fixed(twoPathP90, 3)) m"
            if let p90 { s += " (raw \(fixed(p90 / twoPathP90, 2))x)" }
        }
        return s
    }

    /// `{"summary": {...}}`, null for the figures a run without distances has none of.
    func json(_ j: inout JSONWriter) {
        j.document("summary") { j in
            j.field("procedures", procedures)
            j.field("estimated", estimated)
            j.field("mean_error_m", meanError, decimals: 5)
            j.field("rmse_m", rmse, decimals: 5)
            j.field("p90_error_m", p90, decimals: 5)
            j.field("smoothed_rmse_m", smoothedRMSE, decimals: 5)
            j.field("smoothed_p90_error_m", smoothedP90, decimals: 5)
            j.field("smoothed_p90_bound_m", smoothedBoundP90, decimals: 5)
            j.field("crlb_m", crlb, decimals: 5)
            j.field("rmse_over_crlb", rmse.map { $0 / crlb }, decimals: 5)
            j.field("two_path_p90_bound_m", twoPathP90, decimals: 5)
            j.field("rtt_bound_m", rttBound, decimals: 5)
            j.field("rmse_over_rtt_bound", rttBound.flatMap { b in rmse.map { $0 / b } }, decimals: 5)
        }
    }
}
