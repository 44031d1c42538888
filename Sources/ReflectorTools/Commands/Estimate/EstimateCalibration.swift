import Foundation
import CaptureEstimation
import Captures
import RangingEstimation
import ToolFiles
import ToolJSON

/// `estimate CAPTURE --calibrate DISTANCE_M|paths --out FILE`: a board calibration learned
/// from a capture's procedures (`BoardCalibrationLearner`), printed and written as a
/// calibration file (`BoardCalibrationFile`); and `--path-distances`, each antenna path's own
/// distance per procedure, which shows what a calibration brings together.
enum EstimateCalibration {
    /// What `--calibrate` learns.
    enum Target: Equatable {
        /// The paths' relative delays, at an unknown distance.
        case paths
        /// Absolute delays and the RTT offset, at this known distance in metres.
        case distance(Double)
    }

    static var targetValue: OptionValue<Target> { OptionValue<Target>(allowed: "a distance from 0 to 1000 m, or \"paths\"") { text in
        if text == "paths" { return .paths }
        guard let d = Double(text), d.isFinite, (0...1000).contains(d) else { return nil }
        return .distance(d)
    } }

    /// Learns from `estimates` (kept tones and round trips), prints the calibration and writes it
    /// to `path`.
    static func learn(_ estimates: [ProcedureEstimate], target: Target, estimator choice: EstimatorChoice, source: String,
                      path: String, output: CommandOutput) throws(ToolError) {
        let tones = estimates.compactMap(\.tones).filter { !$0.paths.isEmpty }
        let roundTrips = estimates.compactMap(\.roundTrips).filter(\.hasTimedSteps)
        // The common delay is a distance estimate: a timing estimator's phase fit, or the fit.
        let phase = choice.usesTiming ? EstimatorChoice.ml : choice
        let learner = BoardCalibrationLearner(estimator: phase.estimator)
        let report: BoardCalibrationLearner.Report?
        switch target {
        case .paths: report = learner.relative(tones)
        case .distance(let d): report = learner.absolute(tones, roundTrips: roundTrips, distance: d)
        }
        guard var report else {
            throw .badFile("\(source): no procedure to calibrate from (\(tones.count) with tones\(target == .paths ? "" : ", \(roundTrips.count) with round-trip timing"); every antenna path needs 15 distinct good channels)")
        }
        // A tenth of a millimetre is far below what any calibration resolves.
        func rounded(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
        report.calibration.pathDelays = report.calibration.pathDelays.map(rounded)
        report.calibration.roundTripOffset = report.calibration.roundTripOffset.map(rounded)
        var distance: Double?
        if case .distance(let d) = target { distance = d }
        let file = BoardCalibrationFile(calibration: report.calibration, distance: distance, estimator: phase.rawValue,
                                        procedures: max(tones.count, roundTrips.count), source: (source as NSString).lastPathComponent)
        for line in text(report, target: target, estimator: phase) { output.line(line) }
        try OutputFile.write(file.json, to: path)
        output.line("wrote \(path)")
    }

    static func text(_ r: BoardCalibrationLearner.Report, target: Target, estimator: EstimatorChoice) -> [String] {
        let c = r.calibration
        func m(_ v: Double) -> String { String(format: "%+.3f", v) }
        var lines: [String] = []
        switch target {
        case .paths:
            lines.append("calibration: relative path delays (referred to the paths' median; the common delay is not known without a distance)")
        case .distance(let d):
            lines.append("calibration: absolute at \(NumberText.plain(d)) m" + (c.pathDelays.isEmpty ? ""
                : " (common delay from \(estimator.rawValue) over \(r.distanceProcedures) procedure\(r.distanceProcedures == 1 ? "" : "s"))"))
        }
        if c.pathDelays.isEmpty {
            lines.append("path delays: none learned (no procedure has tones)")
        } else {
            lines.append("path  delay_m  procedures")
        }
        for (p, d) in c.pathDelays.enumerated() {
            let n = p < r.proceduresPerPath.count ? r.proceduresPerPath[p] : 0
            lines.append(String(format: "%4d  ", p) + m(d).leftPadded(7) + String(format: "  %10d", n))
        }
        if let before = r.spreadBefore, let after = r.spreadAfter {
            lines.append(String(format: "spread of the paths' phase-slope distances (median over procedures): %.3f m before, %.3f m after", before, after))
        }
        if case .distance = target {
            if let o = c.roundTripOffset {
                lines.append("rtt offset: \(m(o)) m (median over \(r.roundTripProcedures) timed procedure\(r.roundTripProcedures == 1 ? "" : "s"))")
            } else {
                lines.append("rtt offset: none learned (no procedure timed round trips)")
            }
        }
        return lines
    }

    /// One line per procedure with a distance: each antenna path's own distance with
    /// `estimator` (after any calibration), signed (`BoardCalibrationLearner.signedDistance`: a
    /// path that reads short of 0 shows how far), and their spread.
    static func pathDistances(_ e: ProcedureEstimate, estimator choice: EstimatorChoice) -> String? {
        guard let tones = e.tones, tones.paths.count > 1 else { return nil }
        let judged = ToneScreening.default.judged(tones)
        let estimator = choice.usesTiming ? EstimatorChoice.ml.estimator : choice.estimator
        let d = judged.paths.map { BoardCalibrationLearner.signedDistance($0, estimator: estimator) }
        let known = d.compactMap { $0 }
        let cells = d.map { $0.map { String(format: "%.3f", $0) } ?? "-" }.joined(separator: " ")
        let spread = known.count >= 2 ? String(format: " (spread %.3f m)", known.max()! - known.min()!) : ""
        return "  paths (\(choice.usesTiming ? "ml" : choice.rawValue)): " + cells + spread
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
