import EmulatorMath
import NearbyEmulation
import ToolFiles
import ToolJSON

/// `reflector-emu nearby`: what an app using Nearby Interaction would receive from this
/// project's reflector while the user moves the phone: distance and direction updates, the
/// session's suspensions and rate changes, and a summary of the errors against the truth.
public enum NearbyCommand: Command {
    public static let name = "nearby"
    public static let summary = ["Nearby Interaction emulation: distance and direction updates while the user",
                                 "moves the phone, camera fusion, motion hints, background and radio load"]

    public static let help = HelpText(
        usage: "usage: reflector-emu nearby [options]",
        about: """
            Emulates Nearby Interaction over Channel Sounding: the phone ranges the reflector
            firmware through the simulated air while the user moves it, fuses the distances with
            the camera's pose track into a direction, and prints each update an app would get
            (time, distance, azimuth and elevation or '-', rate), then errors against the truth.
            """)

    public static var options: OptionTable<NearbyOptions> {
        OptionTable(defaults: NearbyOptions(), options: [
            .value(\.distance, "--distance", "M", .number(0.5...30, "m"), help: "accessory distance at the start, metres (default 3)"),
            .value(\.duration, "--duration", "S", .number(1...600, "s"), help: "length of the run, seconds (default 14)"),
            .value(\.phone, "--phone", "MOTION", .choice(NearbyOptions.PhoneMotionChoice.self), help: "walk (default: sway, walk a quarter circle around the",
                   "accessory, sway), sway (stand and sway 0.5 m sideways), still"),
            .value(\.accessory, "--accessory", "MOTION", .choice(NearbyOptions.AccessoryMotionChoice.self),
                   help: "stationary (default) or moving (carried at 0.5 m/s)"),
            .value(\.hint, "--hint", "STATE", .motionHint, help: "motion hint the app gives: stationary, moving, unknown",
                   "(default: none given, which iOS treats as unknown)"),
            .flag(\.cameraAssistance, "--no-camera", to: false, help: "no camera assistance: distance only, direction always '-'"),
            .value("--coexistence", "N[@T]", .loadChange, help: "Bluetooth/Wi-Fi load from T seconds (default 0): a rate",
                   "divisor 1-16, or none, moderate (2), heavy (4); repeatable") { o, change throws(ToolError) in o.loadChanges.append(change) },
            .value("--background", "START:END", .interval, help: "the app is in the background (ranging suspended); repeatable") { o, interval throws(ToolError) in
                o.background.append(interval)
            },
            .value(\.channel, "--channel", "MODEL", .airChannel, help: "radio channel, as for loopback (default open: line of sight,",
                   "one reflection 1.5 m longer at 0.1 amplitude)"),
            .snr(\.snrDB, help: "per-tone SNR in dB (default 20)"),
            .seed(\.seed, help: "seed of the simulation (default 1)"),
            .expansion("--scenario", "FILE.json", help: "read flags from a JSON object: {\"accessory\": \"moving\", \"hint\":",
                       "\"moving\", \"background\": [\"4:6\"], \"coexistence\": [\"2@8\"],",
                       "\"camera\": true, ...} (keys: the flags without dashes; flags",
                       "after --scenario override it)") { path throws(ToolError) in try ScenarioFile.read(path: path) },
            .json(\.json, help: "JSON Lines: one object per update and event, then a summary"),
            .value(\.plotPath, "--plot", "FILE.svg", .text, help: "top-down map of the phone's path and the true and estimated",
                   "accessory positions, and the direction error over time"),
            .view(\.view),
            .viewHold(\.view),
        ], helpColumn: 24, validate: { o throws(ToolError) in
            for b in o.background where b.start >= o.duration {
                throw .usage("--background \(NumberText.plain(b.start)):\(NumberText.plain(b.end)) starts after the run ends (--duration \(NumberText.plain(o.duration)))")
            }
        })
    }

    public static func run(_ options: NearbyOptions, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        _ = try simulate(options, output: output)
        return .success
    }

    /// Runs the scenario, writes the updates and the summary, and returns the run (for tests).
    @discardableResult
    public static func simulate(_ options: NearbyOptions, output: CommandOutput) throws(ToolError) -> NearbySimulation.Run {
        let run = NearbySimulation.run(options.scenario)
        if let e = run.invalidation { throw .usage("the session was invalidated: \(e)") }
        let summary = NearbySummary(run.updates)
        if options.json {
            NearbyReport.writeJSON(run, to: output)
            output.jsonLine { NearbyReport.summaryJSON(summary, run, &$0) }
        } else {
            output.line(NearbyReport.header(options))
            for line in NearbyReport.textLines(run) { output.line(line) }
            output.line(NearbyReport.summaryText(summary, run, options))
        }
        if let path = options.plotPath {
            try OutputFile.write(NearbyPlot(run: run, title: NearbyReport.title(options)).svg, to: path)
        }
        try RangingView.nearby(options, run: run, summary: summary)?.finish(output: output)
        return run
    }
}
