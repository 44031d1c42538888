import ToolJSON

/// What a sweep writes from its statistics: the table on stdout, PREFIX.csv (one row per grid
/// point and estimator) and PREFIX.json (the spec and the same rows). Text only, from
/// `SweepStatistics` alone, so a merge of shards writes byte for byte what one run writes.
/// Nothing here depends on workers, shards or time.
public enum SweepReport {
    /// The first line: the grid's shape and the realizations behind each row.
    public static func header(_ spec: SweepSpec) -> String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        return "reflector-emu sweep: \(spec.cellCount) grid point\(spec.cellCount == 1 ? "" : "s") ("
            + count(spec.distances.count, "distance", "distances") + " × " + count(spec.channels.count, "channel", "channels") + " × "
            + count(spec.snrs.count, "SNR", "SNRs") + " × " + count(spec.antennaPaths.count, "N_AP", "N_AP values") + " × "
            + count(spec.pct.count, "PCT transfer", "PCT transfers") + " × " + count(spec.mainModes.count, "main mode", "main modes") + "), " + count(spec.estimators.count, "estimator", "estimators") + ", "
            + count(spec.seeds, "seed", "seeds") + " × " + count(spec.procedures, "procedure", "procedures") + " per grid point, seed \(spec.seed)"
    }

    /// The table: a header, a row per grid point and estimator, errors in metres. `with_dist` is
    /// procedures with a distance of those run; x_crlb is the RMSE over the CRLB (for rtt, over
    /// RTT's bound); bound_p90_m is
    /// the P90 the two-path bound allows at the channels the procedures met (two-ray channels
    /// only), x_bound the P90 over it.
    public static func table(_ s: SweepStatistics) -> String {
        let width = max(7, s.grid.spec.channels.map(\.name.count).max() ?? 0)
        var out = header(s.grid.spec) + "\n"
        out += pad("distance_m", 10) + "  " + "channel".padding(toLength: width, withPad: " ", startingAt: 0) + pad("snr_db", 8) + pad("n_ap", 6)
            + "  pct     mode  estimator" + pad("with_dist", 12) + pad("rmse_m", 9) + commonHeader(s) + pad("bias_m", 9) + pad("p50_m", 9) + pad("p90_m", 9)
            + pad("p99_m", 9) + pad("crlb_m", 9) + pad("x_crlb", 9) + pad("bound_p90_m", 13) + pad("x_bound", 9) + "\n"
        for row in s.rows {
            let cell = s.grid.cells[row.cell]
            let bias = row.bias.map { ($0 >= 0 ? "+" : "") + fixed($0, 4) } ?? "-"
            out += pad(fixed(cell.distance, 2), 10) + "  " + cell.channel.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + pad(fixed(cell.snrDB, 1), 8) + pad(String(cell.antennaPaths), 6) + "  "
                + cell.pct.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                + String(cell.mainMode.rawValue).padding(toLength: 6, withPad: " ", startingAt: 0)
                + row.estimator.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
                + pad("\(row.estimated)/\(row.procedures)", 12) + pad(metres(row.rmse), 9) + common(s, row) + pad(bias, 9) + pad(metres(row.p50), 9)
                + pad(metres(row.p90), 9) + pad(metres(row.p99), 9) + pad(fixed(row.crlb, 4), 9)
                + pad(row.rmseOverCRLB.map { fixed($0, 2) } ?? "-", 9) + bound(row) + "\n"
        }
        // Each channel model over all its grid points.
        out += s.grid.spec.mainModes.count > 1 ? "pooled over distances, SNRs, N_AP, PCT transfers and main modes:\n"
            : "pooled over distances, SNRs, N_AP and PCT transfers:\n"
        out += "channel".padding(toLength: width, withPad: " ", startingAt: 0) + "  estimator" + pad("with_dist", 12) + pad("rmse_m", 9)
            + commonHeader(s) + pad("bias_m", 9) + pad("p50_m", 9) + pad("p90_m", 9) + pad("p99_m", 9) + pad("x_crlb", 9) + pad("bound_p90_m", 13) + pad("x_bound", 9) + "\n"
        for row in s.pooledRows {
            let bias = row.bias.map { ($0 >= 0 ? "+" : "") + fixed($0, 4) } ?? "-"
            out += s.grid.spec.channels[row.cell].name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + row.estimator.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
                + pad("\(row.estimated)/\(row.procedures)", 12) + pad(metres(row.rmse), 9) + common(s, row) + pad(bias, 9) + pad(metres(row.p50), 9)
                + pad(metres(row.p90), 9) + pad(metres(row.p99), 9) + pad(row.rmseOverCRLB.map { fixed($0, 2) } ?? "-", 9) + bound(row) + "\n"
        }
        return out
    }

    /// The columns of the RMSE over the procedures every estimator estimated and of the P90 over
    /// every procedure (a missing distance an unbounded error), where some
    /// estimator refused a procedure another estimated (so `rmse_m` compares unlike sets); none
    /// otherwise, so a table of estimators that all estimate everything reads as before.
    static func showsCommon(_ s: SweepStatistics) -> Bool {
        let n = s.grid.spec.estimators.count
        guard n > 1 else { return false }
        // Rows are cell-major, n a cell.
        return stride(from: 0, to: s.rows.count, by: n).contains { k in s.rows[k..<k + n].contains { $0.estimated != s.rows[k].estimated } }
    }

    static func commonHeader(_ s: SweepStatistics) -> String { showsCommon(s) ? pad("rmse_common_m", 15) + pad("p90_all_m", 11) : "" }

    static func common(_ s: SweepStatistics, _ row: SweepCellStatistics) -> String {
        showsCommon(s) ? pad(metres(row.commonRMSE), 15) + pad(metres(row.p90OfAll), 11) : ""
    }

    /// The two-path bound's columns of a row ("-" where the channel has none).
    static func bound(_ row: SweepCellStatistics) -> String {
        pad(metres(row.boundP90), 13) + pad(row.p90OverBound.map { fixed($0, 2) } ?? "-", 9)
    }

    static func metres(_ v: Double?) -> String { v.map { fixed($0, 4) } ?? "-" }

    /// The CSV columns, in order.
    public static let csvColumns = ["distance_m", "channel", "snr_db", "antenna_paths", "pct", "main_mode", "estimator", "procedures", "estimated",
                                    "fraction_estimated", "rmse_m", "bias_m", "p50_abs_error_m", "p90_abs_error_m", "p99_abs_error_m",
                                    "crlb_m", "rmse_over_crlb", "bound_p90_m", "p90_over_bound", "rmse_common_m", "p90_all_abs_error_m"]

    /// PREFIX.csv: a header line, then a row per grid point and estimator (comma-separated, lines
    /// ending in LF; no field needs quoting, channel names having no commas or quotes); an empty
    /// field where there is no value
    /// (no procedure gave a distance). Distances and SNRs as the spec holds them, errors to the
    /// micrometre.
    public static func csv(_ s: SweepStatistics) -> String {
        var out = csvColumns.joined(separator: ",") + "\n"
        for row in s.rows {
            let cell = s.grid.cells[row.cell]
            let fields: [String] = [
                NumberText.plain(cell.distance), cell.channel.name, NumberText.plain(cell.snrDB), String(cell.antennaPaths), cell.pct.rawValue,
                String(cell.mainMode.rawValue), row.estimator.rawValue, String(row.procedures), String(row.estimated), fixed(row.fractionEstimated, 4),
                csvNumber(row.rmse, 6), csvNumber(row.bias, 6), csvNumber(row.p50, 6), csvNumber(row.p90, 6), csvNumber(row.p99, 6),
                fixed(row.crlb, 6), csvNumber(row.rmseOverCRLB, 4), csvNumber(row.boundP90, 6), csvNumber(row.p90OverBound, 4),
                csvNumber(row.commonRMSE, 6), csvNumber(row.p90OfAll, 6),
            ]
            out += fields.joined(separator: ",") + "\n"
        }
        return out
    }

    static func csvNumber(_ v: Double?, _ decimals: Int) -> String { v.map { fixed($0, decimals) } ?? "" }

    /// PREFIX.json: `{"format": "reflector-emu sweep 1", "spec": {...}, "rows": [{...}]}`, the
    /// spec in the form a spec file takes (so `reflector-emu sweep` can rerun it from the file's
    /// "spec" object), the rows with the CSV's columns (null for no value).
    public static func json(_ s: SweepStatistics, _ j: inout JSONWriter) {
        j.object { j in
            j.field("format", "reflector-emu sweep 1")
            j.key("spec")
            s.grid.spec.json(&j)
            j.field("rows", array: { j in
                for row in s.rows {
                    let cell = s.grid.cells[row.cell]
                    j.object { j in
                        j.key("distance_m")
                        j.value(roundTrip: cell.distance)
                        j.field("channel", cell.channel.name)
                        j.key("snr_db")
                        j.value(roundTrip: cell.snrDB)
                        j.field("antenna_paths", cell.antennaPaths)
                        j.field("pct", cell.pct.rawValue)
                        j.field("main_mode", Int(cell.mainMode.rawValue))
                        j.field("estimator", row.estimator.rawValue)
                        j.field("procedures", row.procedures)
                        j.field("estimated", row.estimated)
                        j.field("fraction_estimated", row.fractionEstimated, decimals: 4)
                        j.field("rmse_m", row.rmse, decimals: 6)
                        j.field("bias_m", row.bias, decimals: 6)
                        j.field("p50_abs_error_m", row.p50, decimals: 6)
                        j.field("p90_abs_error_m", row.p90, decimals: 6)
                        j.field("p99_abs_error_m", row.p99, decimals: 6)
                        j.field("crlb_m", row.crlb, decimals: 6)
                        j.field("rmse_over_crlb", row.rmseOverCRLB, decimals: 4)
                        j.field("bound_p90_m", row.boundP90, decimals: 6)
                        j.field("p90_over_bound", row.p90OverBound, decimals: 4)
                        j.field("rmse_common_m", row.commonRMSE, decimals: 6)
                        j.field("p90_all_abs_error_m", row.p90OfAll, decimals: 6)
                    }
                }
            })
        }
        j.newline()
    }
}
