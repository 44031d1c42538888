import Foundation
@testable import NearbyEmulation
@testable import ReflectorTools
@testable import ToolJSON
import TestSupport
import Testing

/// `reflector-emu nearby`: defaults, output forms, lifecycle flags, the plot, and bad input.
struct NearbyCommandTests {
    /// This test's files, removed when it ends.
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("nearby") }

    static func run(_ args: [String]) throws -> ([String], NearbySimulation.Run?) {
        let output = CommandOutput.memory()
        let run = try NearbyCommand.simulate(CommandTesting.options(NearbyCommand.self, args), output: output)
        return (output.lines, run)
    }

    /// No flags: the default walk around a stationary accessory at 3 m, 14 s at 19 procedures
    /// per second; a header, one line per update, then the summary.
    @Test func defaults() throws {
        let (lines, run) = try Self.run([])
        let updates = try #require(run).updates
        #expect(updates.count == 267)
        // Two header lines, the updates and events, then an empty line and five summary lines.
        #expect(lines.count == 2 + updates.count + run!.convergence.count + 6)
        #expect(lines.contains { $0.hasSuffix("convergence: converged (direction available)") } == run!.convergence.contains { $0.status == .converged })
        #expect(lines[0].hasPrefix("Nearby Interaction: walk, stationary accessory at 3.0 m, no hint, 14.0 s, seed 1"))
        #expect(lines[lines.count - 5].hasPrefix("summary: 267 updates, 267 with a distance"))
        #expect((NearbySummary(updates).medianDistanceError ?? 1) < 0.05)
        // Direction comes once the user has moved the phone, not at the start.
        #expect(updates.prefix(20).allSatisfy { $0.object.direction == nil })
    }

    /// JSON Lines: every update parses, with nulls where the app gets nil; events and the
    /// summary follow the same form.
    @Test func jsonLines() throws {
        let (lines, _) = try Self.run(["--json", "--duration", "6", "--background", "2:3", "--coexistence", "moderate@4", "--hint", "stationary"])
        var updates = 0, events: [String] = []
        for line in lines.dropLast() {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let e = o["event"] as? String { events.append(e); continue }
            updates += 1
            #expect(o["distance_m"] is Double && o["true_distance_m"] is Double && o["rate_hz"] is Double)
            #expect(o["direction"] is NSNull || (o["direction"] as? [Double])?.count == 3)
        }
        #expect(events.filter { $0 != "convergence" } == ["suspended", "suspension_ended", "rate_changed"])
        #expect(events.first == "convergence")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: [String: Any]])
        #expect(summary["summary"]?["updates"] as? Int == updates)
        #expect(summary["summary"]?["suspensions"] as? Int == 1)
    }

    /// No camera: every update has '-' for azimuth and elevation.
    @Test func noCamera() throws {
        let (lines, run) = try Self.run(["--no-camera", "--duration", "3"])
        #expect(try #require(run).updates.allSatisfy { $0.object.direction == nil && $0.object.horizontalAngle == nil })
        #expect(lines.contains("  direction: none (camera assistance is off)"))
    }

    /// `--plot` writes an SVG with the map and the error panel.
    @Test func plot() throws {
        let path = dir.file("nearby.svg")
        _ = try Self.run(["--duration", "6", "--hint", "stationary", "--plot", path])
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
        #expect(svg.contains("Top-down map") && svg.contains("Direction error") && svg.contains("phone path (true)"))
    }

    /// A scenario file stands for flags; later flags override it; a wrong key is named with
    /// the keys allowed.
    @Test func scenarioFile() throws {
        let path = dir.file("scenario.json")
        try Data(#"{"accessory": "moving", "hint": "moving", "background": ["2:3"], "coexistence": ["2@4"], "duration": 5, "camera": false}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let options = try CommandTesting.options(NearbyCommand.self, ["--scenario", path, "--duration", "6"])
        #expect(options.accessory == .moving && options.hint == .moving && !options.cameraAssistance && options.duration == 6)
        #expect(options.background == [NearbyScenario.Interval(start: 2, end: 3)])
        #expect(options.loadChanges == [NearbyScenario.LoadChange(time: 4, load: .moderate)])
        let run = try #require(try Self.run(["--scenario", path]).1)
        #expect(run.suspensions == [2] && run.rates.map(\.time) == [0, 4])
        try Data(#"{"speed": 2}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ToolError.badFile("\(path): key \"speed\" is not a scenario key; allowed: distance, duration, phone, accessory, hint, camera, coexistence, background, channel, snr, seed")) {
            _ = try NearbyCommand.run(["--scenario", path])
        }
    }

    /// Bad input: a clear message naming the flag, what was found and what is allowed.
    @Test func badInput() {
        func message(_ args: [String]) -> String? {
            do { _ = try NearbyCommand.run(args) } catch { return error.description }
            return nil
        }
        #expect(message(["--hint", "sleepy"]) == "--hint must be one of stationary, moving, unknown, found 'sleepy'")
        #expect(message(["--phone", "fly"]) == "--phone must be one of walk, sway, still, found 'fly'")
        #expect(message(["--coexistence", "20"])?.hasPrefix("--coexistence must be N or N@SECONDS") == true)
        #expect(message(["--background", "5:2"]) == "--background must be START:END in seconds with 0 <= START < END, found '5:2'")
        #expect(message(["--background", "20:30"])?.contains("starts after the run ends") == true)
        #expect(message(["--distance", "0"]) == "--distance must be a number from 0.5 to 30 m, found '0'")
        #expect(message(["--bogus"]) == "nearby: unknown option '--bogus' (see reflector-emu nearby --help)")
        #expect(message(["--seed"]) == "--seed needs a value (a non-negative integer)")
    }
}
