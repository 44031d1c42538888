import Foundation
import NearbyEmulation

/// `reflector-emu nearby`: what an app using Nearby Interaction would receive from this
/// project's reflector while the user moves the phone: distance and direction updates, the
/// session's suspensions and rate changes, and a summary of the errors against the truth.
public enum NearbyCommand {
    public static let help = """
        usage: reflector-emu nearby [options]

        Emulates Nearby Interaction over Channel Sounding: the phone ranges the reflector
        firmware through the simulated air while the user moves it, fuses the distances with
        the camera's pose track into a direction, and prints each update an app would get
        (time, distance, azimuth and elevation or '-', rate), then errors against the truth.

          --distance M            accessory distance at the start, metres (default 3)
          --duration S            length of the run, seconds (default 14)
          --phone MOTION          walk (default: sway, walk a quarter circle around the
                                  accessory, sway), sway (stand and sway 0.5 m sideways), still
          --accessory MOTION      stationary (default) or moving (carried at 0.5 m/s)
          --hint STATE            motion hint the app gives: stationary, moving, unknown
                                  (default: none given, which iOS treats as unknown)
          --no-camera             no camera assistance: distance only, direction always '-'
          --coexistence N[@T]     Bluetooth/Wi-Fi load from T seconds (default 0): a rate
                                  divisor 1-16, or none, moderate (2), heavy (4); repeatable
          --background START:END  the app is in the background (ranging suspended); repeatable
          --channel MODEL         radio channel, as for loopback (default open: line of sight,
                                  one reflection 1.5 m longer at 0.1 amplitude)
          --snr DB                per-tone SNR in dB (default 20)
          --seed N                seed of the simulation (default 1)
          --scenario FILE.json    read flags from a JSON object: {"accessory": "moving", "hint":
                                  "moving", "background": ["4:6"], "coexistence": ["2@8"],
                                  "camera": true, ...} (keys: the flags without dashes; flags
                                  after --scenario override it)
          --json                  JSON Lines: one object per update and event, then a summary
          --plot FILE.svg         top-down map of the phone's path and the true and estimated
                                  accessory positions, and the direction error over time

        """

    /// Runs the command; `emit` receives each output line. Returns the run (for tests).
    @discardableResult
    public static func run(_ args: [String], emit: (String) -> Void) throws(ToolError) -> NearbySimulation.Run? {
        if args.contains("--help") || args.contains("-h") {
            emit(help)
            return nil
        }
        let options = try NearbyOptions(arguments: args)
        let scenario = options.scenario
        let run = NearbySimulation.run(scenario)
        if let e = run.invalidation { throw .usage("the session was invalidated: \(e)") }
        let summary = NearbySummary(run.updates)
        if options.json {
            for line in jsonLines(run) { emit(line) }
            emit(summaryJSON(summary, run))
        } else {
            emit(header(options))
            for line in textLines(run) { emit(line) }
            emit(summaryText(summary, run, options))
        }
        if let path = options.plotPath {
            try LoopbackCommand.write(NearbyPlot(run: run, title: title(options)).svg, to: path)
        }
        return run
    }

    static func title(_ o: NearbyOptions) -> String {
        let hint = o.hint.map { "\($0) hint" } ?? "no hint"
        return "\(o.phone.rawValue), \(o.accessory.rawValue) accessory at \(f(o.distance, 1)) m, \(hint)" + (o.cameraAssistance ? "" : ", no camera")
    }

    static func header(_ o: NearbyOptions) -> String {
        "Nearby Interaction: \(title(o)), \(f(o.duration, 1)) s, seed \(o.seed)\n"
            + "  time_s  distance_m  true_m  azimuth_deg  elevation_deg  error_deg  rate_hz"
    }

    /// Update lines and session events, in time order.
    static func textLines(_ run: NearbySimulation.Run) -> [String] {
        var lines: [(Double, Int, String)] = []
        for (i, u) in run.updates.enumerated() {
            let o = u.object
            let line = pad(f(o.time, 3), 8) + pad(o.distance.map { f($0, 3) } ?? "-", 12) + pad(f(u.trueDistance, 3), 8)
                + pad(o.horizontalAngle.map { f(degrees($0), 1) } ?? "-", 13) + pad(o.elevation.map { f(degrees($0), 1) } ?? "-", 15)
                + pad(u.directionError.map { f(degrees($0), 1) } ?? "-", 11) + pad(f(o.measurementRate, 1), 9)
            lines.append((o.time, 1_000_000 + i, line))
        }
        for t in run.suspensions { lines.append((t, 0, pad(f(t, 3), 8) + "  suspended: the app went to the background")) }
        for t in run.suspensionEnds { lines.append((t, 0, pad(f(t, 3), 8) + "  resumed: the app is in the foreground")) }
        for r in run.rates.dropFirst() { lines.append((r.time, 1, pad(f(r.time, 3), 8) + "  rate now \(f(r.rate, 1)) procedures/s (coexistence load)")) }
        for c in run.convergence { lines.append((c.time, 0, pad(f(c.time, 3), 8) + "  convergence: " + convergenceText(c.status))) }
        return lines.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    /// What an app would tell the user.
    static func convergenceText(_ c: NearbyAlgorithmConvergence) -> String {
        switch c {
        case .unknown: return "unknown"
        case .converged: return "converged (direction available)"
        case .notConverged(let reasons):
            return reasons.map { r in
                switch r {
                case .insufficientMovement: return "move the phone (insufficient movement)"
                case .insufficientHorizontalSweep: return "move the phone side to side (insufficient horizontal sweep)"
                case .insufficientVerticalSweep: return "move the phone up and down (insufficient vertical sweep)"
                }
            }.joined(separator: "; ")
        }
    }

    static func convergenceJSON(_ c: NearbyAlgorithmConvergence) -> String {
        switch c {
        case .unknown: return "\"status\": \"unknown\""
        case .converged: return "\"status\": \"converged\""
        case .notConverged(let reasons):
            let names = reasons.map { r -> String in
                switch r {
                case .insufficientMovement: return "\"insufficient_movement\""
                case .insufficientHorizontalSweep: return "\"insufficient_horizontal_sweep\""
                case .insufficientVerticalSweep: return "\"insufficient_vertical_sweep\""
                }
            }
            return "\"status\": \"not_converged\", \"reasons\": [\(names.joined(separator: ", "))]"
        }
    }

    static func verticalName(_ v: VerticalDirectionEstimate) -> String {
        switch v {
        case .unknown: "unknown"
        case .same: "same"
        case .above: "above"
        case .below: "below"
        case .aboveOrBelow: "above_or_below"
        }
    }

    static func jsonLines(_ run: NearbySimulation.Run) -> [String] {
        var lines: [(Double, Int, String)] = []
        for (i, u) in run.updates.enumerated() {
            let o = u.object
            let direction = o.direction.map { "[\(f($0.x, 4)), \(f($0.y, 4)), \(f($0.z, 4))]" } ?? "null"
            let line = "{\"time_s\": \(f(o.time, 6)), \"distance_m\": \(o.distance.map { f($0, 4) } ?? "null"), "
                + "\"direction\": \(direction), \"azimuth_deg\": \(o.horizontalAngle.map { f(degrees($0), 2) } ?? "null"), "
                + "\"elevation_deg\": \(o.elevation.map { f(degrees($0), 2) } ?? "null"), \"vertical\": \"\(verticalName(o.verticalDirectionEstimate))\", "
                + "\"rate_hz\": \(f(o.measurementRate, 3)), "
                + "\"true_distance_m\": \(f(u.trueDistance, 4)), \"direction_error_deg\": \(u.directionError.map { f(degrees($0), 2) } ?? "null")}"
            lines.append((o.time, 1_000_000 + i, line))
        }
        for t in run.suspensions { lines.append((t, 0, "{\"time_s\": \(f(t, 6)), \"event\": \"suspended\"}")) }
        for t in run.suspensionEnds { lines.append((t, 0, "{\"time_s\": \(f(t, 6)), \"event\": \"suspension_ended\"}")) }
        for r in run.rates.dropFirst() { lines.append((r.time, 1, "{\"time_s\": \(f(r.time, 6)), \"event\": \"rate_changed\", \"rate_hz\": \(f(r.rate, 3))}")) }
        for c in run.convergence { lines.append((c.time, 0, "{\"time_s\": \(f(c.time, 6)), \"event\": \"convergence\", \(convergenceJSON(c.status))}")) }
        return lines.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    static func summaryText(_ s: NearbySummary, _ run: NearbySimulation.Run, _ o: NearbyOptions) -> String {
        func deg(_ v: Double?) -> String { v.map { f(degrees($0), 1) + "°" } ?? "-" }
        func m(_ v: Double?) -> String { v.map { f($0, 3) + " m" } ?? "-" }
        var out = "\nsummary: \(s.updates) updates, \(s.withDistance) with a distance, \(s.withDirection) with a direction"
        out += "\n  distance error: median \(m(s.medianDistanceError)), 90th percentile \(m(s.p90DistanceError))"
        if o.cameraAssistance {
            out += "\n  direction error: median \(deg(s.medianDirectionError)), 90th percentile \(deg(s.p90DirectionError))"
            out += "; first direction at " + (s.firstDirectionTime.map { f($0, 2) + " s" } ?? "never")
            out += "\n  horizontal angle: \(s.withHorizontalAngle) updates, median error \(deg(s.medianHorizontalAngleError))"
        } else {
            out += "\n  direction: none (camera assistance is off)"
        }
        out += "\n  rate: " + run.rates.map { "\(f($0.rate, 1))/s from \(f($0.time, 1)) s" }.joined(separator: ", ")
        if !run.suspensions.isEmpty { out += "; suspended \(run.suspensions.count)× in the background" }
        return out
    }

    static func summaryJSON(_ s: NearbySummary, _ run: NearbySimulation.Run) -> String {
        func deg(_ v: Double?) -> String { v.map { f(degrees($0), 3) } ?? "null" }
        func m(_ v: Double?) -> String { v.map { f($0, 4) } ?? "null" }
        return "{\"summary\": {\"updates\": \(s.updates), \"with_distance\": \(s.withDistance), \"with_direction\": \(s.withDirection), "
            + "\"median_distance_error_m\": \(m(s.medianDistanceError)), \"p90_distance_error_m\": \(m(s.p90DistanceError)), "
            + "\"median_direction_error_deg\": \(deg(s.medianDirectionError)), \"p90_direction_error_deg\": \(deg(s.p90DirectionError)), "
            + "\"first_direction_s\": \(s.firstDirectionTime.map { f($0, 4) } ?? "null"), \"with_horizontal_angle\": \(s.withHorizontalAngle), "
            + "\"median_horizontal_angle_error_deg\": \(deg(s.medianHorizontalAngleError)), \"suspensions\": \(run.suspensions.count)}}"
    }

    static func degrees(_ radians: Double) -> Double { radians * 180 / Double.pi }
    static func f(_ v: Double, _ decimals: Int) -> String { LoopbackCommand.f(v, decimals) }
    static func pad(_ s: String, _ width: Int) -> String { LoopbackCommand.pad(s, width) }
}
