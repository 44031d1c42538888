import PhoneEmulation
import ToolJSON

/// What `loopback --view` shows: its header line and the CS set-up, each procedure's JSON
/// Lines record and tones, its summary line. The command calls these four, nothing else.
extension RangingView {
    static func loopback(_ o: LoopbackOptions) throws(ToolError) -> RangingView? {
        guard let view = try start(o.view) else { return nil }
        let setup = o.setup
        let header = LoopbackReport.header(o).split(separator: "\n").first.map(String.init) ?? ""
        view.setup(command: "loopback", lines: [header] + CSSetupText.lines(configuration: setup.configuration, parameters: setup.parameters))
        return view
    }

    func procedure(_ row: ProcedureRow, _ report: ChannelSoundingReport) {
        procedure(row: { LoopbackReport.json(row, &$0) }, tones: report.tones, truth: row.truth, estimate: row.raw)
    }

    func summary(_ s: LoopbackSummary) { summary(text: s.text, json: { s.json(&$0) }) }
}
