import ReflectorFirmware

/// Renders planned procedures for `reflector-emu plan`: one JSON object, or a readable table.
public struct PlanReport {
    public struct Procedure {
        public var counter: UInt16
        public var steps: [PlannedStep]
    }

    public var procedures: [Procedure]
    public var antennaPaths: Int

    /// Plans `count` consecutive procedures from a configuration and security material.
    public init(config: PlanConfigFile, security: SecurityFile, count: Int) {
        antennaPaths = config.antennaConfiguration.antennaPaths
        var planner = ProcedurePlanner(
            configuration: config.configuration, schedule: config.schedule, antennaPaths: antennaPaths,
            drbg: security.drbg, policy: config.leftoverBitPolicy, classification: config.classification)
        procedures = (0..<count).map { _ in
            let steps = planner.planNextProcedure()
            return Procedure(counter: planner.procedureCounter, steps: steps)
        }
    }

    static func hex32(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - s.count) + s
    }

    static func toneExtensionName(_ t: ToneExtension) -> String {
        switch t {
        case .none: return "none"
        case .initiator: return "initiator"
        case .reflector: return "reflector"
        case .both: return "both"
        }
    }

    static func kindName(_ k: StepKind) -> String {
        switch k {
        case .mode0: return "mode0"
        case .main: return "main"
        case .subMode: return "sub_mode"
        case .repetition: return "repetition"
        }
    }

    /// `{"procedures": [{"procedure_counter": 0, "steps": [...]}]}`, keys in a fixed order.
    public var json: String {
        var out = "{\"procedures\": ["
        for (pi, p) in procedures.enumerated() {
            if pi > 0 { out += ", " }
            out += "{\"procedure_counter\": \(p.counter), \"steps\": ["
            for (si, s) in p.steps.enumerated() {
                if si > 0 { out += ", " }
                out += "{\"step\": \(s.index), \"subevent\": \(s.subevent), \"kind\": \"\(Self.kindName(s.kind))\", \"mode\": \(s.mode.rawValue), \"channel\": \(s.channel)"
                if let aa = s.accessAddresses {
                    out += ", \"initiator_aa\": \"\(Self.hex32(aa.initiator))\", \"reflector_aa\": \"\(Self.hex32(aa.reflector))\""
                }
                if s.mode.hasTones {
                    out += ", \"antenna_permutation_index\": \(s.antennaPermutationIndex), \"tone_extension\": \"\(Self.toneExtensionName(s.toneExtension))\""
                }
                if let m = s.soundingMarker {
                    let positions = [Int(m.firstPosition)] + (m.secondPosition.map { [Int($0)] } ?? [])
                    out += ", \"marker_positions\": [\(positions.map(String.init).joined(separator: ", "))]"
                }
                out += ", \"start_us\": \(s.startMicroseconds), \"duration_us\": \(s.durationMicroseconds)}"
            }
            out += "]}"
        }
        return out + "]}"
    }

    /// One table per procedure, a row per step, and a summary line.
    public var table: String {
        var out = ""
        for p in procedures {
            let subevents = Set(p.steps.map(\.subevent)).count
            let end = p.steps.last.map { $0.startMicroseconds + $0.durationMicroseconds } ?? 0
            out += "procedure \(p.counter): \(p.steps.count) steps in \(subevents) subevents, last step ends at \(end) µs\n"
            out += Self.row(["step", "sub", "kind", "mode", "ch", "MHz", "start_us", "dur_us", "antenna order", "tone ext", "initiator AA", "reflector AA"])
            for s in p.steps {
                var order = ""
                if s.mode.hasTones {
                    order = "#\(s.antennaPermutationIndex) " + AntennaPermutation.order(antennaPaths: antennaPaths, index: Int(s.antennaPermutationIndex)).map { "A\($0 + 1)" }.joined(separator: " ")
                }
                out += Self.row([
                    "\(s.index)", "\(s.subevent)", Self.kindName(s.kind), "\(s.mode.rawValue)", "\(s.channel)", "\(2402 + Int(s.channel))",
                    "\(s.startMicroseconds)", "\(s.durationMicroseconds)", order, s.mode.hasTones ? Self.toneExtensionName(s.toneExtension) : "",
                    s.accessAddresses.map { Self.hex32($0.initiator) } ?? "", s.accessAddresses.map { Self.hex32($0.reflector) } ?? "",
                ])
            }
            out += "\n"
        }
        return out
    }

    static let widths = [5, 4, 10, 5, 4, 5, 9, 7, 16, 10, 13, 12]

    static func row(_ cells: [String]) -> String {
        var line = ""
        for (i, c) in cells.enumerated() {
            let w = widths[i]
            line += c.count >= w ? c + " " : c + String(repeating: " ", count: w - c.count)
        }
        while line.hasSuffix(" ") { line.removeLast() }
        return line + "\n"
    }
}
