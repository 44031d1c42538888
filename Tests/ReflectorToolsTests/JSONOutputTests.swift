@testable import BLEHost
@testable import DLTDoA
import EmulatorMath
import Foundation
@testable import NearbyEmulation
@testable import ReflectorTools
@testable import CaptureEstimation
import SerialTransport
import Testing

/// Every command's JSON output path, fed what a writer by string interpolation got wrong:
/// control characters, quotes, backslashes and non-ASCII in strings that come from outside
/// (port descriptions, controller details, reasons), and NaN and infinities in numbers. Each
/// result must parse with JSONSerialization and hold exactly the values put in (null for the
/// numbers JSON cannot say).
struct JSONOutputTests {
    static let nasty = "a\tb\rc\u{01}d\"e\\f\ng naïve 東京"

    static func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(text.hasSuffix("\n") == false || text.filter { $0 == "\n" }.count == 1, sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], sourceLocation: sourceLocation)
    }

    @Test func loopbackRowsAndSummary() throws {
        let row = LoopbackCommand.Row(procedureCounter: 7, time: .nan, truth: .infinity, raw: .nan, smoothed: -.infinity, quality: 0.5)
        let o = try Self.parse(CommandTesting.json { LoopbackReport.json(row, &$0) })
        #expect(o["procedure_counter"] as? Int == 7 && o["quality"] as? Double == 0.5)
        for key in ["time_s", "true_distance_m", "distance_m", "smoothed_distance_m"] { #expect(o[key] is NSNull, "\(key)") }
        let rows = [LoopbackCommand.Row(procedureCounter: 0, time: 0, truth: 3, raw: .nan, smoothed: nil, quality: nil)]
        let summary = try Self.parse(CommandTesting.json { LoopbackSummary(rows: rows, snrDB: 20, antennaPaths: 1, twoPathSigmas: [nil]).json(&$0) })
        let s = try #require(summary["summary"] as? [String: Any])
        #expect(s["mean_error_m"] is NSNull && s["rmse_m"] is NSNull && s["p90_error_m"] is NSNull && s["smoothed_rmse_m"] is NSNull)
        #expect(s["estimated"] as? Int == 1)
        #expect(s["two_path_p90_bound_m"] is NSNull)
        // A realization with a reflection adds its bound: one σ of 5 cm, a P90 of 1.6449σ; a
        // smoothed distance that pooled 4 procedures is held to half of it.
        let pooled = [LoopbackCommand.Row(procedureCounter: 0, time: 0, truth: 3, raw: 3.1, smoothed: 3.01, quality: 0.5, pooled: 4)]
        let light = try #require(try Self.parse(CommandTesting.json {
            LoopbackSummary(rows: pooled, snrDB: 20, antennaPaths: 1, twoPathSigmas: [0.05]).json(&$0)
        })["summary"] as? [String: Any])
        let bound = try #require(light["two_path_p90_bound_m"] as? Double)
        #expect(abs(bound - 1.6449 * 0.05) < 1e-4, "\(bound)")
        let smoothedBound = try #require(light["smoothed_p90_bound_m"] as? Double)
        #expect(abs(smoothedBound - 1.6449 * 0.025) < 1e-4, "\(smoothedBound)")
    }

    @Test func estimateRows() throws {
        let e = ProcedureEstimate(procedureCounter: 3, distance: .nan, quality: .infinity, method: Self.nasty, reason: Self.nasty)
        let o = try Self.parse(CommandTesting.json { e.json(&$0) })
        #expect(o["distance_m"] is NSNull && o["quality"] is NSNull)
        #expect(o["method"] as? String == Self.nasty && o["reason"] as? String == Self.nasty)
    }

    @Test func checkReport() throws {
        var report = CheckReport(ControllerProbe.Findings())
        report.requirements[0].name = Self.nasty
        report.requirements[0].detail = "\u{1F}" + Self.nasty
        let o = try Self.parse(CommandTesting.json { report.json(&$0) })
        let first = try #require((o["requirements"] as? [[String: Any]])?.first)
        #expect(first["name"] as? String == Self.nasty && first["detail"] as? String == "\u{1F}" + Self.nasty)
        #expect(o["compatible"] as? Bool == false)
        #expect((o["controller"] as? [String: Any])?["hci_version"] is NSNull)
    }

    @Test func portsReport() throws {
        let port = SerialPortInfo(path: "/dev/tty\tX", description: Self.nasty, transport: .usb, usbVendorID: 0x1366, usbProductID: 0x1068,
                                  manufacturer: "\u{7}SEGGER\"", product: "J-Link\\", serialNumber: "\u{0}1")
        let out = CommandOutput.memory()
        out.jsonLine(style: .compact) { PortsReport(ports: [port], boards: []).json(&$0) }
        let o = try Self.parse(out.text)
        let p = try #require((o["ports"] as? [[String: Any]])?.first)
        #expect(p["path"] as? String == "/dev/tty\tX" && p["description"] as? String == Self.nasty)
        #expect(p["manufacturer"] as? String == "\u{7}SEGGER\"" && p["product"] as? String == "J-Link\\" && p["serial_number"] as? String == "\u{0}1")
        #expect(p["usb_vid"] as? String == "1366" && p["boards"] as? [String] == [])
    }

    @Test func nearbyUpdatesAndSummary() throws {
        let output = CommandOutput.memory()
        var run = try NearbyCommand.simulate(CommandTesting.options(NearbyCommand.self, ["--duration", "1", "--json"]), output: output)
        var u = try #require(run.updates.first)
        u.object.distance = .nan
        u.object.direction = Vector3(.nan, 0, .infinity)
        u.trueDistance = -.infinity
        let o = try Self.parse(CommandTesting.json { j in j.object { NearbyReport.updateJSON(u, &$0) } })
        #expect(o["distance_m"] is NSNull && o["true_distance_m"] is NSNull)
        #expect((o["direction"] as? [Any]).map { $0[0] is NSNull && $0[2] is NSNull } == true)
        var summary = NearbySummary(run.updates)
        summary.medianDistanceError = .nan
        summary.p90DirectionError = .infinity
        run.suspensions = []
        let s = try #require(try Self.parse(CommandTesting.json { NearbyReport.summaryJSON(summary, run, &$0) })["summary"] as? [String: Any])
        #expect(s["median_distance_error_m"] is NSNull && s["p90_direction_error_deg"] is NSNull)
        for line in output.lines { _ = try Self.parse(line) }
    }

    @Test func tdoaFixesAndSummary() throws {
        let output = CommandOutput.memory()
        let run = try TDoACommand.simulate(CommandTesting.options(TDoACommand.self, ["--json"]), output: output)
        for line in output.lines { _ = try Self.parse(line) }
        var r = try #require(run.records.first)
        r.truth = Vector3(.nan, .infinity, 1)
        r.bound = .nan
        let o = try Self.parse(CommandTesting.json { TDoAReport.json(r, &$0) })
        #expect((o["true_m"] as? [Any]).map { $0[0] is NSNull && $0[1] is NSNull && $0[2] as? Double == 1 } == true)
        #expect(o["crlb_m"] is NSNull && o["error_m"] is NSNull)
        var summary = TDoASummary(run, deployment: .defaultRoom(), options: DLTDOASimulation.Options(networkIdentifier: 0x1234))
        summary.rmse = .nan
        summary.crlb = .infinity
        let s = try #require(try Self.parse(CommandTesting.json { summary.json(&$0) })["summary"] as? [String: Any])
        #expect(s["rmse_m"] is NSNull && s["crlb_m"] is NSNull && s["fixes"] as? Int == run.records.count)
    }

    /// tdoa plan and plan: the whole object parses (unbounded errors are null: see
    /// TDoAPlanCommandTests); plan has no strings from outside.
    @Test func planAndTDoAPlan() throws {
        _ = try Self.parse(try TDoAPlanCommand.run(["--json", "--grid", "1"]).output)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let plan = try PlanCommand.run(["--config", root.appendingPathComponent("Examples/plan-config.json").path,
                                        "--security", root.appendingPathComponent("Examples/security-sample.json").path, "--json", "--procedures", "3"])
        #expect((try Self.parse(plan.output)["procedures"] as? [Any])?.count == 3)
    }
}
