import RangingEstimation

/// What `accessory --view` shows: the accessory's name and address, each procedure the
/// reflector measured as its JSON Lines record (the page's table), the summary line. The
/// reflector measures no distance and its PCTs stay in its host, so the page has no trace
/// and no per-channel plots for it.
extension RangingView {
    static func accessory(_ o: AccessoryCommand.Options, address: UInt64) throws(ToolError) -> RangingView? {
        guard let view = try start(o.view) else { return nil }
        view.setup(command: "accessory", lines: [
            "'\(o.name)' at \(HexText.address(address)) (random static) on \(o.board.path ?? "-")",
            "Ranging Service: " + (o.onDemand ? "on demand only" : "real-time and on demand"),
            "pairing: " + (o.passkey ? "passkey shown (DisplayOnly)" : "Just Works") + (o.allowsLegacy ? ", LE legacy accepted" : ""),
        ])
        return view
    }

    /// A record with no plots (a procedure the reflector measured).
    func record(_ row: (inout JSONWriter) -> Void) { procedure(row: row, tones: ToneSet(paths: []), truth: nil, estimate: nil) }
}
