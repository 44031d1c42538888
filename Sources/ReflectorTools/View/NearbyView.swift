import NearbyEmulation
import ToolJSON

/// What `nearby --view` shows: each update (distance, direction, azimuth and elevation, their
/// truth) and session event as its JSON Lines record, the summary. The simulation is over
/// before the first line is printed, so the page is given the run as a replay.
extension RangingView {
    static func nearby(_ o: NearbyOptions, run: NearbySimulation.Run, summary: NearbySummary) throws(ToolError) -> RangingView? {
        guard let view = try start(o.view, tonesInterval: 0) else { return nil }
        view.setup(command: "nearby", lines: NearbyReport.header(o).split(separator: "\n").prefix(1).map(String.init))
        for record in NearbyReport.records(run) { view.record(record) }
        view.summary(text: NearbyReport.summaryText(summary, run, o), json: { NearbyReport.summaryJSON(summary, run, &$0) })
        return view
    }
}
