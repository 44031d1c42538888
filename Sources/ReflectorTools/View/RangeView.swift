import RangingEstimation

/// What `range --view` shows: the board and what it looks for, each procedure's JSON Lines
/// record and tones, the summary line.
extension RangingView {
    static func range(_ o: RangeCommand.Options) throws(ToolError) -> RangingView? {
        guard let view = try start(o.view) else { return nil }
        view.setup(command: "range", lines: [
            "board \(o.board.path ?? "-"), looking for \(o.lookingFor), estimator \(o.estimator.rawValue)"
                + (o.truth.map { ", true distance \(fixed($0, 2)) m" } ?? ""),
            o.alwaysRAS ? "the reflector's results over RAS (--ras)" : "inline PCT when the reflector supports it, else RAS",
            o.requireIOS ? "a reflector an iPhone would refuse is refused (--require-ios)" : "a reflector an iPhone would refuse is ranged with a note",
        ])
        return view
    }

    func procedure(_ row: ProcedureRow, tones: ToneSet?) {
        procedure(row: { row.json(&$0) }, tones: tones ?? ToneSet(paths: []), truth: row.truth, estimate: row.raw)
    }
}
