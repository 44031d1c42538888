import DLTDoA
import Foundation

/// `reflector-emu tdoa`: a DL-TDoA deployment simulated end to end (the anchor firmware on
/// drifting crystals, the phone's session, the app's positioner) and its fixes against truth.
public enum TDoACommand {
    public static let help = """
        usage: reflector-emu tdoa [DEPLOYMENT.json] [options]
               reflector-emu tdoa plan [DEPLOYMENT.json] [options]   (expected error map; see tdoa plan --help)

        Runs UWB DL-TDoA anchors (this project's anchor firmware, each on its own drifting
        crystal) and an iPhone-like receiver walking through the deployment: the phone's session
        reports every message heard, the app's positioner corrects the clock offsets, takes time
        differences, solves (Chan-Ho, then Levenberg-Marquardt with NLOS anchors rejected) and
        tracks. Prints each fix against the truth, then RMSE, 90th percentile and the CRLB.
        Without DEPLOYMENT.json: an 8-anchor room 10 x 8 x 3 m, the phone walking a loop for 20 s
        (see Examples/dltdoa-room.json for the file format).

          --noise M                 receive timestamp noise, metres (default: the file's, or 0.1)
          --loss P                  probability that the phone misses a message (0-0.99)
          --seed N                  seed of the simulation
          --network ID              the network the phone listens to (default: the first anchor's)
          --wifi                    discover the anchors over Wi-Fi instead of Bluetooth LE
          --no-clock-correction     take clock ratios as 1 (to see why they matter)
          --no-outlier-rejection    keep NLOS anchors in every fix
          --json                    JSON Lines: one object per fix, then {"summary": {...}}
          --plot FILE.svg           floor map with anchors, NLOS zones, true and estimated path,
                                    and the error over time against the CRLB

        """

    @discardableResult
    public static func run(_ args: [String], emit: (String) -> Void) throws(ToolError) -> DLTDOASimulation.Run? {
        if args.first == "plan" {
            emit(try TDoAPlanCommand.run(Array(args.dropFirst())))
            return nil
        }
        if args.contains("--help") || args.contains("-h") {
            emit(help)
            return nil
        }
        let options = try TDoAOptions(arguments: args)
        let deployment = try options.deployment()
        var o = DLTDOASimulation.Options(networkIdentifier: options.network ?? Int(deployment.anchors.first?.networkIdentifier ?? 0))
        o.discoveryMethod = options.wifi ? .wifi : .bluetoothLowEnergy
        o.correctsClockOffset = options.clockCorrection
        o.rejectsOutliers = options.outlierRejection
        let run = DLTDOASimulation.run(deployment, o)
        if let e = run.invalidation { throw .usage("the session was invalidated: \(e)") }
        let summary = TDoASummary(run, deployment: deployment, options: o)
        if options.json {
            for r in run.records { emit(jsonLine(r)) }
            emit(summary.json)
        } else {
            emit(header(deployment, o))
            for r in run.records { emit(textLine(r)) }
            emit(summary.text)
        }
        if let path = options.plotPath {
            try LoopbackCommand.write(TDoAPlot(run: run, deployment: deployment, network: UInt32(o.networkIdentifier)).svg, to: path)
        }
        return run
    }

    static func header(_ d: DLTDOADeployment, _ o: DLTDOASimulation.Options) -> String {
        let mine = d.anchors.filter { Int($0.networkIdentifier) == o.networkIdentifier }
        let clusters = Set(mine.map(\.cluster)).count
        return "DL-TDoA: network 0x\(String(o.networkIdentifier, radix: 16, uppercase: true)), \(mine.count) anchors in \(clusters) cluster\(clusters == 1 ? "" : "s"), "
            + "\(f(d.duration, 1)) s walk, timestamp noise \(f(d.timestampSigma, 3)) m, loss \(f(d.lossProbability * 100, 1)) %, seed \(d.seed)\n"
            + "  time_s   true_x  true_y  true_z    fix_x   fix_y   fix_z  error_m  tracked_m  crlb_m  rejected"
    }

    static func textLine(_ r: DLTDOASimulation.Record) -> String {
        let p = r.fix.fix.position, t = r.truth
        let rejected = r.fix.fix.rejectedAnchors.isEmpty ? "-" : r.fix.fix.rejectedAnchors.map { anchorName(r, $0) }.joined(separator: ",")
        return pad(f(r.fix.time, 3), 8) + pad(f(t.x, 2), 9) + pad(f(t.y, 2), 8) + pad(f(t.z, 2), 8) + pad(f(p.x, 2), 9) + pad(f(p.y, 2), 8)
            + pad(f(p.z, 2), 8) + pad(f(r.fixError, 3), 9) + pad(r.trackedError.map { f($0, 3) } ?? "gated", 11) + pad(f(r.bound, 3), 8) + "  " + rejected
    }

    static func jsonLine(_ r: DLTDOASimulation.Record) -> String {
        let p = r.fix.fix.position, t = r.truth
        let tracked = r.fix.tracked.map { "[\(f($0.x, 4)), \(f($0.y, 4)), \(f($0.z, 4))]" } ?? "null"
        let rejected = r.fix.fix.rejectedAnchors.map { "\"\(anchorName(r, $0))\"" }.joined(separator: ", ")
        return "{\"time_s\": \(f(r.fix.time, 6)), \"true_m\": [\(f(t.x, 4)), \(f(t.y, 4)), \(f(t.z, 4))], \"fix_m\": [\(f(p.x, 4)), \(f(p.y, 4)), \(f(p.z, 4))], "
            + "\"tracked_m\": \(tracked), \"error_m\": \(f(r.fixError, 4)), \"tracked_error_m\": \(r.trackedError.map { f($0, 4) } ?? "null"), "
            + "\"crlb_m\": \(f(r.bound, 4)), \"rejected\": [\(rejected)]}"
    }

    /// The hex address of a rejected anchor of a fix.
    static func anchorName(_ r: DLTDOASimulation.Record, _ id: TDoAAnchorID) -> String {
        guard id.group < r.fix.rounds.count else { return "?" }
        let round = r.fix.rounds[id.group]
        let address = id.index.map { $0 < round.differences.count ? round.differences[$0].address : -1 } ?? round.initiatorAddress
        return String(format: "%04X", address)
    }

    static func f(_ v: Double, _ decimals: Int) -> String { LoopbackCommand.f(v, decimals) }
    static func pad(_ s: String, _ width: Int) -> String { LoopbackCommand.pad(s, width) }
}
