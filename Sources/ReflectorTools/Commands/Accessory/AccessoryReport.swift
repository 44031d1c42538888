import BLEHost
import Foundation
import ReflectorFirmware
import ToolJSON

/// What `reflector-emu accessory` prints: a header and a line (or JSON object) per procedure
/// the reflector measured on stdout; status lines (advertising, connections, pairing,
/// encryption) on stderr; a summary at the end.
struct AccessoryReport {
    let json: Bool
    let output: CommandOutput
    private(set) var procedures = 0
    private(set) var connections = 0
    private(set) var pairings = 0
    /// The live view, which shows the status lines too.
    var view: RangingView?

    init(json: Bool, output: CommandOutput) {
        self.json = json
        self.output = output
    }

    func start(name: String, address: UInt64) {
        guard !json else { return }
        output.line("reflector-emu accessory: '\(name)' at \(HexText.address(address)) (random static)")
        output.line("procedure  subevents  mode0  mode1  mode2  mode3  channels  tones_h/m/l/u     ref_dBm  rssi_dBm  fc_ppm  status")
    }

    mutating func procedure(_ r: ProcedureReport) {
        procedures += 1
        let status = r.doneStatus == .aborted ? "aborted (\(RangeReport.describe(r.abortReasons)))" : "complete"
        let fc = r.frequencyCompensation.map { Double($0) / 100 }
        if json {
            output.jsonLine { Self.json(r, &$0) }
            return
        }
        let q = r.toneQuality.map(String.init).joined(separator: "/")
        output.line(pad(String(r.procedureCounter), 9) + pad(String(r.subevents), 11) + r.stepsByMode.map { pad(String($0), 7) }.joined()
            + pad(String(r.channels), 10) + pad(q, 17) + pad(r.referencePowerLevel == 0x7F ? "-" : String(r.referencePowerLevel), 10)
            + pad(r.meanRSSI.map { fixed($0, 1) } ?? "-", 10) + pad(fc.map { fixed($0, 2) } ?? "-", 8) + "  " + status)
    }

    /// `{"procedure_counter": 3, "config_id": 0, "subevents": 1, "steps_by_mode": [...], ...}`:
    /// one procedure's JSON Lines record (the live view carries the same).
    static func json(_ r: ProcedureReport, _ j: inout JSONWriter) {
        let fc = r.frequencyCompensation.map { Double($0) / 100 }
        j.object { j in
            j.field("procedure_counter", r.procedureCounter)
            j.field("config_id", r.configID)
            j.field("subevents", r.subevents)
            j.field("steps_by_mode", array: { j in for n in r.stepsByMode { j.value(n) } })
            j.field("channels", r.channels)
            j.field("tone_quality", object: { j in
                j.field("high", r.toneQuality[0])
                j.field("medium", r.toneQuality[1])
                j.field("low", r.toneQuality[2])
                j.field("unavailable", r.toneQuality[3])
            })
            j.field("reference_power_dbm", r.referencePowerLevel == 0x7F ? nil : Int(r.referencePowerLevel))
            j.field("mean_rssi_dbm", r.meanRSSI, decimals: 1)
            j.field("frequency_compensation_ppm", fc, decimals: 2)
            j.field("aborted", r.doneStatus == .aborted)
            if r.doneStatus == .aborted { j.field("abort_reasons", RangeReport.describe(r.abortReasons)) }
        }
    }

    mutating func connected() { connections += 1 }
    mutating func paired() { pairings += 1 }

    /// A status line on stderr ("accessory: connected to ...").
    func status(_ text: String) {
        FileHandle.standardError.write(Data("accessory: \(text)\n".utf8))
        view?.status(text)
    }

    /// A status line, and with `--json` its record on stdout (`LinkRecord`).
    func status(_ text: String, _ record: LinkRecord) {
        status(text)
        if json { output.jsonLine { record.json(&$0) } }
    }

    /// The summary, printed as text or JSON and returned as both (the live view shows the text
    /// and carries the JSON).
    @discardableResult
    func finish(elapsed: Double, bonds: Int) -> (text: String, json: (inout JSONWriter) -> Void) {
        let (procedures, connections, pairings) = (procedures, connections, pairings)
        let json: (inout JSONWriter) -> Void = { j in
            j.document("summary") { j in
                j.field("procedures", procedures)
                j.field("connections", connections)
                j.field("pairings", pairings)
                j.field("bonds", bonds)
                j.field("elapsed_s", elapsed, decimals: 1)
            }
        }
        let text = "summary: \(procedures) procedure\(procedures == 1 ? "" : "s") measured over \(fixed(elapsed, 1)) s; \(connections) connection\(connections == 1 ? "" : "s"), "
            + "\(pairings) new pairing\(pairings == 1 ? "" : "s"), \(bonds) bond\(bonds == 1 ? "" : "s") kept"
        if self.json { output.jsonLine(json) } else { output.line(text) }
        return (text, json)
    }
}
