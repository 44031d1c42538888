import EmulatorMath
import RadioWorld
import RangingEstimation

/// The closing figures of a loopback run: how many procedures gave a distance, the raw
/// estimates' mean error, RMSE and 90th-percentile absolute error against truth (EmulatorMath's
/// `Quantile`: linear interpolation), the smoothed distances' RMSE, and the Cramér-Rao bound
/// for one procedure at this SNR over the 72 channels and N_AP paths (two-sided noise: both
/// devices' measurements add noise). On a two-ray channel the single-path bound is not the
/// limit: the summary adds the 90th percentile of |error| an efficient estimator would have
/// with that reflection (`TwoPathBound`, over a uniform phase when the channel draws it; the
/// antenna paths see the same reflection and add information as independent noise does).
struct LoopbackSummary {
    var procedures: Int
    var estimated: Int
    var meanError: Double?
    var rmse: Double?
    var p90: Double?
    var smoothedRMSE: Double?
    var crlb: Double
    /// An efficient estimator's 90th percentile of |error| on this two-ray channel, metres.
    var twoPathP90: Double?

    init(rows: [LoopbackCommand.Row], snrDB: Double, antennaPaths: Int, channel: AirChannelModel) {
        procedures = rows.count
        let errors = rows.compactMap(\.error)
        estimated = errors.count
        let smoothedErrors = rows.compactMap { r in r.smoothed.flatMap { s in r.truth.map { s - $0 } } }
        meanError = errors.isEmpty ? nil : errors.reduce(0, +) / Double(errors.count)
        rmse = Self.rms(errors)
        smoothedRMSE = Self.rms(smoothedErrors)
        let sorted = errors.map(abs).sorted()
        p90 = Quantile.ofSorted(sorted, 0.9)
        crlb = CramerRaoBound.distanceStandardDeviation(frequencies: CramerRaoBound.allowedChannelFrequencies, snrDB: snrDB,
                                                        noise: .twoSided, paths: antennaPaths)
        if case let .twoRay(excess, amplitude, phase) = channel, amplitude > 0 {
            // A fixed phase: the 90th percentile of |N(0, σ²)|, 1.6449σ.
            let bound = phase.map { φ in
                1.6449 * TwoPathBound.distanceStandardDeviation(snrDB: snrDB, excess: excess, reflection: Complex(phase: φ) * amplitude)
            } ?? TwoPathBound.errorQuantile(0.9, snrDB: snrDB, excess: excess, amplitude: amplitude)
            if bound.isFinite { twoPathP90 = bound / Double(antennaPaths).squareRoot() }
        }
    }

    static func rms(_ v: [Double]) -> Double? { v.isEmpty ? nil : (v.map { $0 * $0 }.reduce(0, +) / Double(v.count)).squareRoot() }

    var text: String {
        var s = "summary: \(estimated) of \(procedures) procedures gave a distance"
        if let meanError, let rmse, let p90 {
            s += "; raw error: mean \(meanError >= 0 ? "+" : "")\(fixed(meanError, 3)) m, RMSE \(fixed(rmse, 3)) m, \(QuantileLabel.p90) of |error| \(fixed(p90, 3)) m"
        }
        if let smoothedRMSE { s += "; smoothed RMSE \(fixed(smoothedRMSE, 3)) m" }
        s += "; CRLB \(fixed(crlb, 4)) m"
        if let rmse { s += " (raw RMSE \(fixed(rmse / crlb, 2))x the bound)" }
        if let twoPathP90 {
            s += "; two-path bound: \(QuantileLabel.p90) of |error| \(fixed(twoPathP90, 3)) m"
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
            j.field("crlb_m", crlb, decimals: 5)
            j.field("rmse_over_crlb", rmse.map { $0 / crlb }, decimals: 5)
            j.field("two_path_p90_bound_m", twoPathP90, decimals: 5)
        }
    }
}
