import CaptureEstimation
import RangingEstimation
import ToolJSON

/// What `estimate --view` shows: the capture replayed, each procedure's JSON Lines record and
/// tones, and a closing line (estimate prints none of its own).
extension RangingView {
    /// Replays `estimates` to a page when `o` asks for one; the command then calls `finish`.
    static func estimate(_ o: EstimateCommand.Options, _ estimates: [ProcedureEstimate]) throws(ToolError) -> RangingView? {
        // A replay comes all at once: every procedure gets its plots.
        guard let view = try start(o.view, tonesInterval: 0) else { return nil }
        var lines = ["capture \(o.capture ?? "-")" + (o.reflector.map { ", reflector's capture \($0)" } ?? ""),
                     "estimator \(o.estimator.rawValue)"]
        if let ipt = o.inlinePCT { lines.append(ipt ? "inline PCT transfer (--ipt)" : "no inline PCT transfer (--no-ipt)") }
        if let handle = o.connection { lines.append("connection handle \(handle) only") }
        let sources = Set(estimates.compactMap { $0.source?.rawValue }).sorted()
        if !sources.isEmpty { lines.append("tones from: " + sources.joined(separator: ", ")) }
        view.setup(command: "estimate", lines: lines)
        for e in estimates {
            view.procedure(row: { e.json(&$0) }, tones: e.tones ?? ToneSet(paths: []), truth: nil, estimate: e.distance)
        }
        let estimated = estimates.filter { $0.distance != nil }.count
        let text = "summary: \(estimated) of \(estimates.count) procedures in the capture gave a distance"
        view.summary(text: text) { j in
            j.document("summary") { j in
                j.field("procedures", estimates.count)
                j.field("estimated", estimated)
            }
        }
        return view
    }
}
