import ToolJSON

/// What `reflector-emu loopback` prints: the header, a line per procedure (text or JSON), the
/// closing summary (`LoopbackSummary`).
enum LoopbackReport {
    static func header(_ o: LoopbackOptions) -> String {
        let place = o.endDistance.map { "walking from \(fixed(o.startDistance, 2)) m to \(fixed($0, 2)) m" } ?? "at \(fixed(o.startDistance, 2)) m"
        return "reflector-emu loopback: reflector \(place), channel \(o.channel.name), SNR \(fixed(o.snrDB, 1)) dB, "
            + "\(o.inlinePCT ? "inline PCT" : "RAS"), \(o.antennaPaths) antenna path\(o.antennaPaths == 1 ? "" : "s"), "
            + "\(o.procedures) procedures, estimator \(o.estimator.rawValue), seed \(o.seed)" + board(o) + "\n"
            + "procedure   time_s   true_m    raw_m  smoothed_m   error_m  pooled"
    }

    /// The generated board's delays and the calibration, when given (nothing for an ideal pair).
    static func board(_ o: LoopbackOptions) -> String {
        var parts: [String] = []
        let d = o.reflectorDelays
        if !d.antennas.isEmpty { parts.append("accessory antenna delays " + d.antennas.map { fixed($0, 3) }.joined(separator: ",") + " m") }
        if d.timing != 0 { parts.append("timing delay \(fixed(d.timing, 3)) m") }
        if let c = o.calibration { parts.append("calibrated (\(c.reference.rawValue))") }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: ", ")
    }

    static func text(_ r: LoopbackCommand.Row) -> String {
        let raw = r.raw.map { fixed($0, 3) } ?? "-"
        let smoothed = r.smoothed.map { fixed($0, 3) } ?? "-"
        let err = r.error.map { ($0 >= 0 ? "+" : "") + fixed($0, 3) } ?? "no distance"
        return pad(String(r.procedureCounter), 9) + pad(fixed(r.time, 3), 9) + pad(r.truth.map { fixed($0, 3) } ?? "-", 9) + pad(raw, 9) + pad(smoothed, 12) + pad(err, 10) + pad(r.pooled.map(String.init) ?? "-", 8)
    }

    static func json(_ r: LoopbackCommand.Row, _ j: inout JSONWriter) { r.json(&j) }
}
