import NearbyEmulation
import ToolJSON

/// What `reflector-emu nearby` prints: the header, the updates and session events in time
/// order (text, or one JSON object each), and the summary.
enum NearbyReport {
    static func title(_ o: NearbyOptions) -> String {
        let hint = o.hint.map { "\($0) hint" } ?? "no hint"
        return "\(o.phone.rawValue), \(o.accessory.rawValue) accessory at \(fixed(o.distance, 1)) m, \(hint)" + (o.cameraAssistance ? "" : ", no camera")
    }

    static func header(_ o: NearbyOptions) -> String {
        "Nearby Interaction: \(title(o)), \(fixed(o.duration, 1)) s, seed \(o.seed)\n"
            + "  time_s  distance_m  true_m  azimuth_deg  elevation_deg  error_deg  rate_hz"
    }

    /// Update lines and session events, in time order.
    static func textLines(_ run: NearbySimulation.Run) -> [String] {
        var lines: [(Double, Int, String)] = []
        for (i, u) in run.updates.enumerated() {
            let o = u.object
            let line = pad(fixed(o.time, 3), 8) + pad(o.distance.map { fixed($0, 3) } ?? "-", 12) + pad(fixed(u.trueDistance, 3), 8)
                + pad(o.horizontalAngle.map { fixed(degrees($0), 1) } ?? "-", 13) + pad(o.elevation.map { fixed(degrees($0), 1) } ?? "-", 15)
                + pad(u.directionError.map { fixed(degrees($0), 1) } ?? "-", 11) + pad(fixed(o.measurementRate, 1), 9)
            lines.append((o.time, 1_000_000 + i, line))
        }
        for t in run.suspensions { lines.append((t, 0, pad(fixed(t, 3), 8) + "  suspended: the app went to the background")) }
        for t in run.suspensionEnds { lines.append((t, 0, pad(fixed(t, 3), 8) + "  resumed: the app is in the foreground")) }
        for r in run.rates.dropFirst() { lines.append((r.time, 1, pad(fixed(r.time, 3), 8) + "  rate now \(fixed(r.rate, 1)) procedures/s (coexistence load)")) }
        for c in run.convergence { lines.append((c.time, 0, pad(fixed(c.time, 3), 8) + "  convergence: " + convergenceText(c.status))) }
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

    /// `"status": ...` and, when not converged, `"reasons": [...]`.
    static func convergenceJSON(_ c: NearbyAlgorithmConvergence, _ j: inout JSONWriter) {
        switch c {
        case .unknown: j.field("status", "unknown")
        case .converged: j.field("status", "converged")
        case .notConverged(let reasons):
            j.field("status", "not_converged")
            j.field("reasons", reasons.map { r -> String in
                switch r {
                case .insufficientMovement: "insufficient_movement"
                case .insufficientHorizontalSweep: "insufficient_horizontal_sweep"
                case .insufficientVerticalSweep: "insufficient_vertical_sweep"
                }
            })
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

    /// One object per update and event, in time order (events before the updates of their time).
    static func writeJSON(_ run: NearbySimulation.Run, to output: CommandOutput) {
        for record in records(run) { output.jsonLine(record) }
    }

    /// The run's JSON Lines records in time order, each a writer of one object (the live view
    /// publishes the same).
    static func records(_ run: NearbySimulation.Run) -> [(inout JSONWriter) -> Void] {
        enum Entry {
            case update(NearbyUpdateRecord)
            case suspended(Double), resumed(Double)
            case rate(time: Double, rate: Double)
            case convergence(time: Double, NearbyAlgorithmConvergence)
        }
        var entries: [(Double, Int, Entry)] = []
        for (i, u) in run.updates.enumerated() { entries.append((u.object.time, 1_000_000 + i, .update(u))) }
        for t in run.suspensions { entries.append((t, 0, .suspended(t))) }
        for t in run.suspensionEnds { entries.append((t, 0, .resumed(t))) }
        for r in run.rates.dropFirst() { entries.append((r.time, 1, .rate(time: r.time, rate: r.rate))) }
        for c in run.convergence { entries.append((c.time, 0, .convergence(time: c.time, c.status))) }
        // A stable sort, as the lines were sorted before: equal keys keep their order.
        let sorted = entries.enumerated().sorted { ($0.element.0, $0.element.1, $0.offset) < ($1.element.0, $1.element.1, $1.offset) }
        return sorted.map { (_, item) in
            let entry = item.2
            return { (j: inout JSONWriter) in
                j.object { j in
                    switch entry {
                    case .update(let u): updateJSON(u, &j)
                    case .suspended(let t):
                        j.field("time_s", t, decimals: 6)
                        j.field("event", "suspended")
                    case .resumed(let t):
                        j.field("time_s", t, decimals: 6)
                        j.field("event", "suspension_ended")
                    case .rate(let t, let rate):
                        j.field("time_s", t, decimals: 6)
                        j.field("event", "rate_changed")
                        j.field("rate_hz", rate, decimals: 3)
                    case .convergence(let t, let status):
                        j.field("time_s", t, decimals: 6)
                        j.field("event", "convergence")
                        convergenceJSON(status, &j)
                    }
                }
            }
        }
    }

    static func updateJSON(_ u: NearbyUpdateRecord, _ j: inout JSONWriter) {
        let o = u.object
        j.field("time_s", o.time, decimals: 6)
        j.field("distance_m", o.distance, decimals: 4)
        j.key("direction")
        if let d = o.direction {
            j.beginArray()
            for v in [d.x, d.y, d.z] { j.value(v, decimals: 4) }
            j.endArray()
        } else {
            j.null()
        }
        j.field("azimuth_deg", o.horizontalAngle.map(degrees), decimals: 2)
        j.field("elevation_deg", o.elevation.map(degrees), decimals: 2)
        j.field("vertical", verticalName(o.verticalDirectionEstimate))
        j.field("rate_hz", o.measurementRate, decimals: 3)
        j.field("true_distance_m", u.trueDistance, decimals: 4)
        j.field("direction_error_deg", u.directionError.map(degrees), decimals: 2)
    }

    static func summaryText(_ s: NearbySummary, _ run: NearbySimulation.Run, _ o: NearbyOptions) -> String {
        func deg(_ v: Double?) -> String { v.map { fixed(degrees($0), 1) + "°" } ?? "-" }
        func m(_ v: Double?) -> String { v.map { fixed($0, 3) + " m" } ?? "-" }
        var out = "\nsummary: \(s.updates) updates, \(s.withDistance) with a distance, \(s.withDirection) with a direction"
        out += "\n  distance error: median \(m(s.medianDistanceError)), \(QuantileLabel.p90) \(m(s.p90DistanceError))"
        if o.cameraAssistance {
            out += "\n  direction error: median \(deg(s.medianDirectionError)), \(QuantileLabel.p90) \(deg(s.p90DirectionError))"
            out += "; first direction at " + (s.firstDirectionTime.map { fixed($0, 2) + " s" } ?? "never")
            if let bound = s.medianDirectionBound, let sigma = s.boundRangeSigma {
                let measured = s.boundPhaseSigma == nil ? "these ranges" : "these ranges and carrier-phase changes"
                let phaseNoise = s.boundPhaseSigma.map { ", \(fixed($0 * 1000, 1)) mm of phase-change noise" } ?? ""
                out += "\n  direction bound: median \(deg(bound)) (Cramér–Rao: \(measured) from the true phone positions, "
                    + "\(fixed(sigma, 3)) m of range noise\(phaseNoise))"
            }
            out += "\n  horizontal angle: \(s.withHorizontalAngle) updates, median error \(deg(s.medianHorizontalAngleError))"
        } else {
            out += "\n  direction: none (camera assistance is off)"
        }
        out += "\n  rate: " + run.rates.map { "\(fixed($0.rate, 1))/s from \(fixed($0.time, 1)) s" }.joined(separator: ", ")
        if !run.suspensions.isEmpty { out += "; suspended \(run.suspensions.count)× in the background" }
        return out
    }

    static func summaryJSON(_ s: NearbySummary, _ run: NearbySimulation.Run, _ j: inout JSONWriter) {
        j.document("summary") { j in
            j.field("updates", s.updates)
            j.field("with_distance", s.withDistance)
            j.field("with_direction", s.withDirection)
            j.field("median_distance_error_m", s.medianDistanceError, decimals: 4)
            j.field("p90_distance_error_m", s.p90DistanceError, decimals: 4)
            j.field("median_direction_error_deg", s.medianDirectionError.map(degrees), decimals: 3)
            j.field("p90_direction_error_deg", s.p90DirectionError.map(degrees), decimals: 3)
            j.field("first_direction_s", s.firstDirectionTime, decimals: 4)
            j.field("median_direction_bound_deg", s.medianDirectionBound.map(degrees), decimals: 3)
            j.field("bound_range_sigma_m", s.boundRangeSigma, decimals: 4)
            j.field("bound_phase_sigma_m", s.boundPhaseSigma, decimals: 5)
            j.field("with_horizontal_angle", s.withHorizontalAngle)
            j.field("median_horizontal_angle_error_deg", s.medianHorizontalAngleError.map(degrees), decimals: 3)
            j.field("suspensions", run.suspensions.count)
        }
    }

    static func degrees(_ radians: Double) -> Double { radians * 180 / Double.pi }
}
