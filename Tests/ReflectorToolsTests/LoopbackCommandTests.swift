import Foundation
@testable import ReflectorTools
import TestSupport
import Testing

/// `reflector-emu loopback`: defaults, output forms, options and errors.
struct LoopbackCommandTests {
    /// This test's files, removed when it ends.
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("loopback") }

    static func run(_ args: [String]) throws -> ([String], [LoopbackCommand.Row]) {
        let output = CommandOutput.memory()
        let rows = try LoopbackCommand.simulate(CommandTesting.options(LoopbackCommand.self, args + ["--no-progress"]), output: output)
        return (output.lines, rows)
    }

    /// No flags: 20 procedures at 3 m in light multipath, one line each, then the summary.
    @Test func defaults() throws {
        let (lines, rows) = try Self.run([])
        #expect(rows.count == 20)
        #expect(rows.allSatisfy { $0.truth == 3.0 && $0.raw != nil && $0.smoothed != nil })
        #expect(rows.map(\.procedureCounter) == (0..<20).map(UInt16.init))
        let errors = rows.map { abs($0.error!) }.sorted()
        #expect(errors[17] < 0.8, "light multipath keeps the P90 error under a metre: \(errors)")
        #expect(lines.first!.hasPrefix("reflector-emu loopback: reflector at 3.00 m, channel light, SNR 20.0 dB, inline PCT, 1 antenna path, 20 procedures"))
        #expect(lines.last!.hasPrefix("summary: 20 of 20 procedures gave a distance; raw error: mean "))
        #expect(lines.last!.contains("CRLB 0.0129 m"))
    }

    @Test func jsonLines() throws {
        let (lines, _) = try Self.run(["--json", "--procedures", "3", "--channel", "free", "--distance", "7.5"])
        #expect(lines.count == 4)
        for line in lines.prefix(3) {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            #expect(o["true_distance_m"] as? Double == 7.5)
            #expect(abs((o["distance_m"] as! Double) - 7.5) < 0.1)
            #expect(o["smoothed_distance_m"] is Double && o["procedure_counter"] is Int)
        }
        let summary = try JSONSerialization.jsonObject(with: Data(lines[3].utf8)) as! [String: [String: Any]]
        #expect(summary["summary"]?["procedures"] as? Int == 3)
        #expect(summary["summary"]?["crlb_m"] is Double)
    }

    /// Free space at 20 dB over a run: the summary's RMSE sits near the bound.
    @Test func freeSpaceSummaryNearTheBound() throws {
        let (lines, rows) = try Self.run(["--channel", "free", "--procedures", "60", "--seed", "4"])
        let rmse = (rows.map { pow($0.error!, 2) }.reduce(0, +) / Double(rows.count)).squareRoot()
        #expect(rmse < 1.5 * 0.0129, "\(lines.last!)")
    }

    /// A walk: the truth moves from start to end, and the estimates follow. At 1 m/s the
    /// reflector moves 1.6 cm during a procedure, which the random channel order turns into
    /// phase noise of about a radian (4π·f·Δd/c) and so ~10 cm of distance noise: the bound
    /// is 0.15 m, against 0.02 m standing still (`freeSpaceSummaryNearTheBound`).
    @Test func walk() throws {
        let (_, rows) = try Self.run(["--walk", "2:8", "--channel", "free", "--procedures", "30"])
        #expect(rows.first!.truth! < 2.5 && rows.last!.truth! > 7.5)
        #expect(rows.allSatisfy { abs($0.error!) < 0.15 })
        #expect(abs(rows.last!.smoothed! - rows.last!.truth!) < 0.3)
    }

    /// Deterministic for a seed; RAS mode and four antenna paths also range.
    @Test func seedsAndModes() throws {
        let a = try Self.run(["--procedures", "4", "--seed", "9"]).1
        let b = try Self.run(["--procedures", "4", "--seed", "9"]).1
        #expect(a == b)
        let ras = try Self.run(["--procedures", "4", "--ras", "--antenna-paths", "4", "--channel", "free"]).1
        #expect(ras.count == 4 && ras.allSatisfy { abs($0.raw! - 3.0) < 0.05 })
    }

    /// The capture the loopback records is one the estimate command reads back.
    @Test func btsnoopCaptureRoundTrips() throws {
        let path = dir.file("loopback.btsnoop")
        let (_, rows) = try Self.run(["--procedures", "5", "--channel", "free", "--btsnoop", path])
        let estimated = try EstimateCommand.run([path, "--json"])
        #expect(estimated.message == nil)
        let lines = estimated.output.split(separator: "\n")
        #expect(lines.count == 5)
        for (line, row) in zip(lines, rows) {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            #expect(abs((o["distance_m"] as! Double) - row.raw!) < 0.002)
        }
    }

    @Test(arguments: [
        (["--distance", "0"], "--distance must be a number from 0.1 to 149 m, found '0'"),
        (["--snr"], "--snr needs a value"),
        (["--channel", "tgn-z"], "--channel must be one of light, open, free, two-ray, tgn-b, tgn-c, tgn-d, tgn-e"),
        (["--antenna-paths", "5"], "--antenna-paths must be 1, 2, 3 or 4, found '5'"),
        (["--estimator", "music"], "--estimator must be one of kay, ls, ifft, esprit, ml, rtt, combined, found 'music'"),
        (["--walk", "3-8"], "--walk must be START:END in metres"),
        (["--frobnicate"], "loopback: unknown option '--frobnicate'"),
    ])
    func badOptions(args: [String], message: String) {
        do {
            _ = try LoopbackCommand.run(args + ["--no-progress"])
            Issue.record("accepted \(args)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func executableExitStatus() throws {
        let ok = try ToolProcess.run(["loopback", "--procedures", "2", "--json"])
        #expect(ok.status == 0 && ok.stdout.split(separator: "\n").count == 3 && ok.stderr.isEmpty)
        let bad = try ToolProcess.run(["loopback", "--snr", "loud"])
        #expect(bad.status == 2 && bad.stderr.hasPrefix("reflector-emu: --snr must be a number"))
    }
}

extension LoopbackCommandTests {
    /// `--plot` writes one SVG with the three panels.
    @Test func plotWritesThreePanels() throws {
        let path = dir.file("loopback.svg")
        _ = try Self.run(["--procedures", "5", "--plot", path])
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.contains("Phase against frequency") && svg.contains("Channel impulse response") && svg.contains("Distance against truth"))
    }
}
