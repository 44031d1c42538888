import Foundation
import RangingEstimation

extension LoopbackCommand {
    /// The closing figures of a run: how many procedures gave a distance, the raw estimates'
    /// mean error, RMSE and 90th-percentile absolute error against truth, the smoothed
    /// distances' RMSE, and the Cramér-Rao bound for one procedure at this SNR over the 72
    /// channels and N_AP paths (two-sided noise: both devices' measurements add noise).
    struct Summary {
        var procedures: Int
        var estimated: Int
        var meanError: Double?
        var rmse: Double?
        var p90: Double?
        var smoothedRMSE: Double?
        var crlb: Double

        init(rows: [Row], snrDB: Double, antennaPaths: Int) {
            procedures = rows.count
            let errors = rows.compactMap { r in r.raw.map { $0 - r.truth } }
            estimated = errors.count
            let smoothedErrors = rows.compactMap { r in r.smoothed.map { $0 - r.truth } }
            meanError = errors.isEmpty ? nil : errors.reduce(0, +) / Double(errors.count)
            rmse = Self.rms(errors)
            smoothedRMSE = Self.rms(smoothedErrors)
            let sorted = errors.map(abs).sorted()
            p90 = sorted.isEmpty ? nil : sorted[Int((0.9 * Double(sorted.count - 1)).rounded())]
            crlb = CramerRaoBound.distanceStandardDeviation(frequencies: CramerRaoBound.allowedChannelFrequencies, snrDB: snrDB,
                                                            noise: .twoSided, paths: antennaPaths)
        }

        static func rms(_ v: [Double]) -> Double? { v.isEmpty ? nil : (v.map { $0 * $0 }.reduce(0, +) / Double(v.count)).squareRoot() }

        var text: String {
            var s = "summary: \(estimated) of \(procedures) procedures gave a distance"
            if let meanError, let rmse, let p90 {
                s += "; raw error: mean \(meanError >= 0 ? "+" : "")\(f(meanError, 3)) m, RMSE \(f(rmse, 3)) m, P90 \(f(p90, 3)) m"
            }
            if let smoothedRMSE { s += "; smoothed RMSE \(f(smoothedRMSE, 3)) m" }
            s += "; CRLB \(f(crlb, 4)) m"
            if let rmse { s += " (raw RMSE \(f(rmse / crlb, 2))x the bound)" }
            return s
        }

        var json: String {
            func n(_ v: Double?) -> String { v.map { f($0, 5) } ?? "null" }
            return "{\"summary\": {\"procedures\": \(procedures), \"estimated\": \(estimated), \"mean_error_m\": \(n(meanError)), "
                + "\"rmse_m\": \(n(rmse)), \"p90_error_m\": \(n(p90)), \"smoothed_rmse_m\": \(n(smoothedRMSE)), \"crlb_m\": \(n(crlb)), "
                + "\"rmse_over_crlb\": \(n(rmse.map { $0 / crlb }))}}"
        }
    }

    /// What the plot needs from the run's first procedure.
    struct PlotInput {
        var tones: ToneSet
        var truth: Double
    }
}
