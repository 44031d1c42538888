import BLEHost
import PhoneEmulation
import RangingEstimation
import ToolJSON

/// What `accessory --view` shows: the accessory's name and address and its board's `check`
/// report, each procedure the reflector measured as its JSON Lines record (the page's table)
/// with its own PCTs per channel and antenna path (amplitude, phase, tone quality), the summary
/// line. The reflector measures no distance (its PCTs hold its LO's phase, and the distance is
/// the phone's to compute), so the page has no trace and no impulse response for it.
extension RangingView {
    static func accessory(_ o: AccessoryCommand.Options, address: UInt64, check: CheckReport) throws(ToolError) -> RangingView? {
        guard let view = try start(o.view) else { return nil }
        view.setup(command: "accessory", lines: [
            "'\(o.name)' at \(HexText.address(address)) (random static) on \(o.board.path ?? "-")",
            "Ranging Service: " + (o.onDemand ? "on demand only" : "real-time and on demand"),
            "pairing: " + (o.passkey ? "passkey shown (DisplayOnly)" : "Just Works") + (o.allowsLegacy ? ", LE legacy accepted" : ""),
            "",
            "the board's check report:",
        ] + check.text.split(separator: "\n").map(String.init))
        return view
    }

    /// A procedure the reflector measured: its record, and its PCTs for the plots.
    func record(_ p: ProcedureReport) {
        let tones = ToneSetBuilder.oneSide(p.steps, antennaPaths: p.antennaPaths)
        procedure(row: { AccessoryReport.json(p, &$0) }, tones: tones) { ProcedureView(oneSide: tones) }
    }
}
