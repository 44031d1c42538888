import BLEHost
import RangingEstimation
import ReflectorFirmware
import ToolJSON

/// What `range --view` shows: the board and what it looks for, then per link the reflector
/// checked against iOS's rules (what an iPhone checks before it ranges), the configuration the
/// controllers agreed and the procedures' timing, the way the reflector's results come; each
/// procedure's JSON Lines record and tones, the summary line.
extension RangingView {
    static func range(_ o: RangeCommand.Options, board: ControllerProbe.Findings) throws(ToolError) -> RangingView? {
        guard let view = try start(o.view) else { return nil }
        let check = CheckReport(board)
        view.setup(command: "range", lines: [
            "board \(o.board.path ?? "-"), looking for \(o.lookingFor), estimator \(o.estimator.rawValue)"
                + (o.truth.map { ", true distance \(fixed($0, 2)) m" } ?? ""),
            "this board's " + (check.text.split(separator: "\n").first.map(String.init) ?? "controller: -")
                + "; CS roles: " + roles(board.capabilities),
            o.alwaysRAS ? "the reflector's results over RAS (--ras)" : "inline PCT when the reflector supports it, else RAS",
            o.requireIOS ? "a reflector an iPhone would refuse is refused (--require-ios)" : "a reflector an iPhone would refuse is ranged with a note",
        ])
        return view
    }

    /// Procedures are enabled on a link: the reflector's check and the agreed set-up.
    func link(_ host: InitiatorHost, enabled e: LECSProcedureEnableComplete) {
        setup(section: "reflector", lines: Self.reflectorCheck(version: host.remoteVersion, capabilities: host.remoteCapabilities))
        let configuration = host.agreedConfiguration ?? host.configuration
        setup(section: "configuration", lines: CSSetupText.lines(configuration: configuration, parameters: host.setup.parameters) + [
            "enabled: subevents of \(e.subeventLength) µs, \(e.subeventsPerEvent) per event, every \(e.eventInterval) connection event(s), "
                + "a procedure every \(e.procedureInterval) events, Tx power \(e.selectedTxPower) dBm",
        ])
        if host.usesInlinePCT { setup(section: "results", lines: ["the reflector's results: inline PCT (in the initiator's own step data)"]) }
    }

    /// The reflector's results come over its Ranging Service.
    func rangingData(_ mode: RASClient.Mode) {
        setup(section: "results", lines: ["the reflector's results: over RAS, " + (mode == .realTime ? "real-time" : "on demand")])
    }

    /// iOS's requirements against the reflector's LL version and CS capabilities, one line each.
    static func reflectorCheck(version: UInt8?, capabilities: CSCapabilities?) -> [String] {
        let v = version.map { "LL version 0x\(HexText.digits($0, 2)) (\(CheckReport.versionName($0)))" } ?? "LL version unknown"
        guard let c = capabilities else { return ["reflector: \(v), CS capabilities unknown"] }
        let report = IOSComplianceReport(capabilities: c, bluetoothVersion: version ?? 0)
        return ["reflector: \(v); CS roles: \(roles(c)); iOS requirements:"]
            + IOSRequirement.allCases.map { "  [\(report.unmet.contains($0) ? "FAIL" : "pass")] \($0.summary)" }
            + [report.isCompliant ? "an iPhone would range this reflector" : "an iPhone would not range this reflector (see FAIL above)"]
    }

    static func roles(_ c: CSCapabilities?) -> String {
        guard let c else { return "unknown" }
        let names = [c.supports(CSRole.initiator) ? "initiator" : nil, c.supports(CSRole.reflector) ? "reflector" : nil].compactMap { $0 }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }

    func procedure(_ row: ProcedureRow, tones: ToneSet?) {
        procedure(row: { row.json(&$0) }, tones: tones ?? ToneSet(paths: []), truth: row.truth, estimate: row.raw)
    }
}
