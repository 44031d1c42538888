import EmulatorMath
import Foundation
import ReflectorFirmware
import ToolJSON

/// What `reflector-emu range` prints: a header, a line (or JSON object) per procedure on
/// stdout; status lines and a progress line on stderr; the closing summary on stdout. With
/// `--truth` the lines gain the true distance and the error, and the summary the error figures.
struct RangeReport {
    let options: RangeCommand.Options
    let output: CommandOutput
    /// Every procedure's row, kept only for a plot (`--plot`): an hour of ranging is 18,000 rows.
    private(set) var rows: [RangeSession.Row] = []
    /// What the summary needs of the rest, so memory stays flat through a run of hours: the
    /// count, the last row, and the raw distances (8 octets a procedure).
    private(set) var count = 0
    private(set) var last: RangeSession.Row?
    private var distances: [Double] = []
    private let terminal = isatty(STDERR_FILENO) != 0
    private var progressShown = false
    private var lastProgress = Date.distantPast
    /// The live view, which shows the status lines too.
    var view: RangingView?

    init(options: RangeCommand.Options, output: CommandOutput) {
        self.options = options
        self.output = output
    }

    func start() {
        guard !options.json else { return }
        output.line("reflector-emu range: \(options.board.path ?? "-"), looking for \(options.lookingFor), estimator \(options.estimator.rawValue)"
            + (options.truth.map { ", true distance \(fixed($0, 2)) m" } ?? ""))
        output.line("procedure   time_s    raw_m  smoothed_m  quality" + (options.truth == nil ? "" : "   true_m   error_m"))
    }

    mutating func procedure(_ row: RangeSession.Row) {
        clearProgress()
        var r = row
        r.truth = options.truth
        if options.plot != nil { rows.append(r) }
        count += 1
        last = r
        if let raw = r.raw { distances.append(raw) }
        if options.json {
            output.jsonLine { r.json(&$0) }
            return
        }
        var line = pad(String(r.procedureCounter), 9) + pad(fixed(r.time, 3), 9) + pad(r.raw.map { fixed($0, 3) } ?? "-", 9)
            + pad(r.smoothed.map { fixed($0, 3) } ?? "-", 12) + pad(r.quality.map { fixed($0, 3) } ?? "-", 9)
        if let truth = r.truth {
            line += pad(fixed(truth, 3), 9) + pad(r.error.map { ($0 >= 0 ? "+" : "") + fixed($0, 3) } ?? "no distance", 10)
        }
        output.line(line)
    }

    /// A status line on stderr ("range: connected to ...").
    mutating func status(_ text: String) {
        clearProgress()
        FileHandle.standardError.write(Data("range: \(text)\n".utf8))
        view?.status(text)
    }

    /// A status line, and with `--json` its record on stdout (`LinkRecord`).
    mutating func status(_ text: String, _ record: LinkRecord) {
        status(text)
        if options.json { output.jsonLine { record.json(&$0) } }
    }

    /// The progress line on a terminal's stderr, redrawn at most five times a second.
    mutating func progress(scanning: Bool, lookingFor: String) {
        guard options.progress, terminal, Date().timeIntervalSince(lastProgress) > 0.2 else { return }
        lastProgress = Date()
        let text = scanning ? "scanning for \(lookingFor)..."
            : "\(count) procedure\(count == 1 ? "" : "s")" + (last?.smoothed.map { ", \(fixed($0, 2)) m" } ?? "")
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
        progressShown = true
    }

    private mutating func clearProgress() {
        guard progressShown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        progressShown = false
    }

    /// The summary: procedures, how many gave a distance, the median and the 10th–90th
    /// percentile spread of the raw distances, the procedure rate; with `--truth`, the mean
    /// error and RMSE against it. Printed as text or JSON, and returned as both (the live view
    /// shows the text and carries the JSON).
    @discardableResult
    mutating func finish(elapsed: Double, connections: Int) -> (text: String, json: (inout JSONWriter) -> Void) {
        clearProgress()
        let distances = self.distances.sorted()
        let median = Quantile.ofSorted(distances, 0.5)
        let spread = Quantile.ofSorted(distances, 0.9).flatMap { hi in Quantile.ofSorted(distances, 0.1).map { hi - $0 } }
        let rate = elapsed > 0 ? Double(count) / elapsed : 0
        let errors = options.truth.map { t in distances.map { $0 - t } } ?? []
        let meanError = errors.isEmpty ? nil : errors.reduce(0, +) / Double(errors.count)
        let rmse = errors.isEmpty ? nil : (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        let truth = options.truth
        let count = self.count
        let json: (inout JSONWriter) -> Void = { j in
            j.document("summary") { j in
                j.field("procedures", count)
                j.field("estimated", distances.count)
                j.field("median_distance_m", median, decimals: 4)
                j.field("p10_p90_spread_m", spread, decimals: 4)
                j.field("procedures_per_s", rate, decimals: 3)
                j.field("connections", connections)
                if truth != nil {
                    j.field("mean_error_m", meanError, decimals: 5)
                    j.field("rmse_m", rmse, decimals: 5)
                }
            }
        }
        var s = "summary: \(distances.count) of \(count) procedures gave a distance"
        if let median { s += "; median \(fixed(median, 3)) m" }
        if let spread { s += ", 10th-90th percentile spread \(fixed(spread, 3)) m" }
        s += "; \(fixed(rate, 1)) procedures/s over \(fixed(elapsed, 1)) s, \(connections) connection\(connections == 1 ? "" : "s")"
        if let meanError, let rmse { s += "; error against \(fixed(options.truth!, 2)) m: mean \(meanError >= 0 ? "+" : "")\(fixed(meanError, 3)) m, RMSE \(fixed(rmse, 3)) m" }
        if options.json { output.jsonLine(json) } else { output.line(s) }
        return (s, json)
    }

    static func describe(_ r: AbortReasons) -> String {
        var parts: [String] = []
        if r.procedure != .none { parts.append("procedure: \(r.procedure) (0x\(String(r.procedure.rawValue, radix: 16)))") }
        if r.subevent != .none { parts.append("subevent: \(r.subevent) (0x\(String(r.subevent.rawValue, radix: 16)))") }
        return parts.isEmpty ? "no reason given" : parts.joined(separator: ", ")
    }
}
