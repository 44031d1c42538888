import DLTDoA
import ToolJSON

/// `reflector-emu tdoa`: a DL-TDoA deployment simulated end to end (the anchor firmware on
/// drifting crystals, the phone's session, the app's positioner) and its fixes against truth.
public enum TDoACommand: Command {
    public static let name = "tdoa"
    public static let summary = ["simulate UWB DL-TDoA anchors and an iPhone-like receiver: fixes against",
                                 "truth and the CRLB; 'tdoa plan' maps the expected error over a floor"]
    public static var subcommands: [any Command.Type] { [TDoAPlanCommand.self, TDoAStudyCommand.self] }

    public static let help = HelpText(
        usage: """
            usage: reflector-emu tdoa [DEPLOYMENT.json] [options]
                   reflector-emu tdoa plan [DEPLOYMENT.json] [options]   (expected error map; see tdoa plan --help)
                   reflector-emu tdoa study [options]   (the receiver over generated deployments; see tdoa study --help)
            """,
        about: """
            Runs UWB DL-TDoA anchors (this project's anchor firmware, each on its own drifting
            crystal) and an iPhone-like receiver walking through the deployment: the phone's session
            reports every message heard, the app's positioner corrects the clock offsets, takes time
            differences, solves (Chan-Ho, then Levenberg-Marquardt with NLOS anchors rejected) and
            tracks. Prints each fix against the truth, then RMSE, 90th percentile and the CRLB.
            Without DEPLOYMENT.json: an 8-anchor room 10 x 8 x 3 m, the phone walking a loop for 20 s
            (see Examples/dltdoa-room.json for the file format, Examples/dltdoa-clusters.json for
            several clusters chained by bridges, with parent_cluster and uwb_range_m). --generate
            SEED walks a generated deployment instead (a random room, layout, noise and losses;
            tdoa study runs many).
            """)

    public static var options: OptionTable<TDoAOptions> {
        OptionTable(defaults: TDoAOptions(), options: [
            .value(\.noise, "--noise", "M", .number(0...10, "m"), help: "receive timestamp noise, metres (default: the file's, or 0.1)"),
            .value(\.loss, "--loss", "P", .number(0...0.99, ""), help: "probability that the phone misses a message (0-0.99)"),
            .value(\.seed, "--seed", "N", .unsigned, help: "seed of the simulation"),
            .value(\.network, "--network", "ID", .networkIdentifier, help: "the network the phone listens to (default: the first anchor's)"),
            .flag(\.wifi, "--wifi", help: "discover the anchors over Wi-Fi instead of Bluetooth LE"),
            .flag(\.clockCorrection, "--no-clock-correction", to: false, help: "take clock ratios as 1 (to see why they matter)"),
            .flag(\.outlierRejection, "--no-outlier-rejection", to: false, help: "keep NLOS anchors in every fix"),
            .json(\.json, help: "JSON Lines: one object per fix, then {\"summary\": {...}}"),
            .value(\.plotPath, "--plot", "FILE.svg", .text, help: "floor map with anchors, NLOS zones, true and estimated path,",
                   "and the error over time against the CRLB"),
            .view(\.view),
            .viewHold(\.view),
            .value(\.generate, "--generate", "SEED", .unsigned, help: "a generated deployment (random room, layout, noise, losses)"),
            .value(\.layout, "--layout", "NAME", .choice(DLTDOADeploymentGenerator.Layout.self), help: "its anchor layout: ceiling, two-heights, walls, corridor"),
            .flag(\.shadowed, "--shadowed", help: "with one of its anchors behind an obstacle"),
        ], positional: Positional("DEPLOYMENT.json") { o, path throws(ToolError) in
            if let first = o.deploymentPath { throw .usage("tdoa: one deployment file at most, found '\(first)' and '\(path)'") }
            o.deploymentPath = path
        }, helpColumn: 26)
    }

    public static func run(_ options: TDoAOptions, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        _ = try simulate(options, output: output)
        return .success
    }

    /// Runs the deployment, writes the fixes and the summary, and returns the run (for tests).
    @discardableResult
    public static func simulate(_ options: TDoAOptions, output: CommandOutput) throws(ToolError) -> DLTDOASimulation.Run {
        let deployment = try options.deployment()
        var o = DLTDOASimulation.Options(networkIdentifier: options.network.map(Int.init) ?? Int(deployment.anchors.first?.networkIdentifier ?? 0))
        o.discoveryMethod = options.wifi ? .wifi : .bluetoothLowEnergy
        o.correctsClockOffset = options.clockCorrection
        o.rejectsOutliers = options.outlierRejection
        let run = DLTDOASimulation.run(deployment, o)
        if let e = run.invalidation { throw .usage("the session was invalidated: \(e)") }
        let summary = TDoASummary(run, deployment: deployment, options: o)
        if options.json {
            for r in run.records { output.jsonLine { TDoAReport.json(r, &$0) } }
            output.jsonLine { summary.json(&$0) }
        } else {
            output.line(TDoAReport.header(deployment, o))
            for r in run.records { output.line(TDoAReport.text(r)) }
            output.line(summary.text)
        }
        if let path = options.plotPath {
            try OutputFile.write(TDoAPlot(run: run, deployment: deployment, network: UInt32(o.networkIdentifier)).svg, to: path)
        }
        try RangingView.tdoa(options, deployment: deployment, network: o.networkIdentifier, header: TDoAReport.header(deployment, o), run: run,
                             summary: summary)?.finish(output: output)
        return run
    }
}

/// What `reflector-emu tdoa` prints per fix, as text or JSON.
enum TDoAReport {
    static func header(_ d: DLTDOADeployment, _ o: DLTDOASimulation.Options) -> String {
        let mine = d.anchors.filter { Int($0.networkIdentifier) == o.networkIdentifier }
        let clusters = Set(mine.map(\.cluster)).count
        return "DL-TDoA: network 0x\(String(o.networkIdentifier, radix: 16, uppercase: true)), \(mine.count) anchors in \(clusters) cluster\(clusters == 1 ? "" : "s"), "
            + "\(fixed(d.duration, 1)) s walk, timestamp noise \(fixed(d.timestampSigma, 3)) m, loss \(fixed(d.lossProbability * 100, 1)) %, seed \(d.seed)\n"
            + "  time_s   true_x  true_y  true_z    fix_x   fix_y   fix_z  error_m  tracked_m  crlb_m  rejected"
    }

    static func text(_ r: DLTDOASimulation.Record) -> String {
        let p = r.fix.fix.position, t = r.truth
        let rejected = r.fix.fix.rejections.isEmpty ? "-" : r.fix.fix.rejections.map { anchorName(r, $0.anchor) + " " + reasonName($0.reason) }.joined(separator: ",")
        return pad(fixed(r.fix.time, 3), 8) + pad(fixed(t.x, 2), 9) + pad(fixed(t.y, 2), 8) + pad(fixed(t.z, 2), 8) + pad(fixed(p.x, 2), 9)
            + pad(fixed(p.y, 2), 8) + pad(fixed(p.z, 2), 8) + pad(fixed(r.fixError, 3), 9) + pad(r.trackedError.map { fixed($0, 3) } ?? "gated", 11)
            + pad(fixed(r.bound, 3), 8) + "  " + rejected
    }

    static func json(_ r: DLTDOASimulation.Record, _ j: inout JSONWriter) {
        let p = r.fix.fix.position, t = r.truth
        j.object { j in
            j.field("time_s", r.fix.time, decimals: 6)
            j.field("true_m", [t.x, t.y, t.z], decimals: 4)
            j.field("fix_m", [p.x, p.y, p.z], decimals: 4)
            j.key("tracked_m")
            if let k = r.fix.tracked { j.array { j in for v in [k.x, k.y, k.z] { j.value(v, decimals: 4) } } } else { j.null() }
            j.field("error_m", r.fixError, decimals: 4)
            j.field("tracked_error_m", r.trackedError, decimals: 4)
            j.field("crlb_m", r.bound, decimals: 4)
            j.key("rejected")
            j.array { j in
                for x in r.fix.fix.rejections {
                    j.object { j in
                        j.field("anchor", anchorName(r, x.anchor))
                        j.field("reason", reasonName(x.reason))
                    }
                }
            }
            j.key("anchors")
            j.array { j in
                for d in r.fix.fix.delays {
                    j.object { j in
                        j.field("anchor", anchorName(r, d.anchor))
                        j.field("used", d.used)
                        j.field("delay_m", d.delay, decimals: 4)
                        j.field("delay_sigma_m", d.sigma, decimals: 4)
                    }
                }
            }
            j.field("held_to_volume", r.fix.fix.heldToVolume)
        }
    }

    /// How a rejection reason reads in the table and in JSON.
    static func reasonName(_ reason: TDoARejection.Reason) -> String {
        switch reason {
        case .lateArrival: "late"
        case .persistentlyLate: "late-before"
        case .lateWithAnother: "late-pair"
        }
    }

    /// The hex address of a rejected anchor of a fix.
    static func anchorName(_ r: DLTDOASimulation.Record, _ id: TDoAAnchorID) -> String {
        TDoARound.address(of: id, in: r.fix.rounds).map(hex4) ?? "?"
    }

    /// `%04X` of an address (a negative one, which no anchor has, as its two's complement).
    static func hex4(_ v: Int) -> String { HexText.digits(UInt32(truncatingIfNeeded: v), 4) }
}
