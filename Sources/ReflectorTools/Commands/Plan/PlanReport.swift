import ReflectorFirmware
import ToolFiles
import ToolJSON

/// Plans procedures for `reflector-emu plan` and writes them as they are planned: one JSON
/// object, or a table per procedure. Nothing is kept but the procedure being written, so
/// 65,536 procedures (about 850 MB of JSON) take no more memory than one.
public struct PlanReport {
    public var config: PlanConfigFile
    public var security: SecurityFile
    public var count: Int

    public init(config: PlanConfigFile, security: SecurityFile, count: Int) {
        self.config = config
        self.security = security
        self.count = count
    }

    var antennaPaths: Int { config.antennaConfiguration.antennaPaths }

    public func makePlanner() -> ProcedurePlanner<AES128> {
        ProcedurePlanner(configuration: config.configuration, schedule: config.schedule, antennaPaths: antennaPaths,
                         drbg: security.drbg, policy: config.leftoverBitPolicy, classification: config.classification)
    }

    /// `{"procedures": [{"procedure_counter": 0, "steps": [...]}, ...]}` and a newline, keys in
    /// a fixed order, written to `output` procedure by procedure.
    public func writeJSON(to output: CommandOutput) {
        var planner = makePlanner()
        output.json { j in
            j.beginObject()
            j.key("procedures")
            j.beginArray()
            for _ in 0..<count {
                planner.beginProcedure()
                j.beginObject()
                j.field("procedure_counter", planner.procedureCounter)
                j.key("steps")
                j.beginArray()
                while let s = planner.nextStep() { Self.writeStep(s, &j) }
                j.endArray()
                j.endObject()
                j.flushIfFull()
            }
            j.endArray()
            j.endObject()
            j.newline()
        }
    }

    /// `{"step": 0, "subevent": 0, "kind": "mode0", "mode": 0, "channel": 11, "initiator_aa": ...,
    /// "reflector_aa": ..., "start_us": 0, "duration_us": 318}`; tone steps add the antenna
    /// permutation and tone extension, sounding steps their marker positions.
    static func writeStep(_ s: PlannedStep, _ j: inout JSONWriter) {
        j.beginObject()
        j.field("step", s.index)
        j.member(", \"subevent\": ", s.subevent)
        j.member(", \"kind\": ", literal: kindName(s.kind))
        j.member(", \"mode\": ", s.mode.rawValue)
        j.member(", \"channel\": ", s.channel)
        if let aa = s.accessAddresses {
            j.member(", \"initiator_aa\": ", hex: UInt64(aa.initiator), digits: 8)
            j.member(", \"reflector_aa\": ", hex: UInt64(aa.reflector), digits: 8)
        }
        if s.mode.hasTones {
            j.member(", \"antenna_permutation_index\": ", s.antennaPermutationIndex)
            j.member(", \"tone_extension\": ", literal: toneExtensionName(s.toneExtension))
        }
        if let m = s.soundingMarker {
            j.key("marker_positions")
            j.beginArray()
            j.value(m.firstPosition)
            if let second = m.secondPosition { j.value(second) }
            j.endArray()
        }
        j.member(", \"start_us\": ", s.startMicroseconds)
        j.member(", \"duration_us\": ", s.durationMicroseconds)
        j.endObject()
    }

    /// One table per procedure, a row per step, and a summary line.
    public func writeTable(to output: CommandOutput) {
        var planner = makePlanner()
        var steps: [PlannedStep] = []
        for _ in 0..<count {
            planner.beginProcedure()
            steps.removeAll(keepingCapacity: true)
            while let s = planner.nextStep() { steps.append(s) }
            output.write(table(counter: planner.procedureCounter, steps: steps))
        }
    }

    func table(counter: UInt16, steps: [PlannedStep]) -> String {
        let subevents = Set(steps.map(\.subevent)).count
        let end = steps.last.map { $0.startMicroseconds + $0.durationMicroseconds } ?? 0
        var out = "procedure \(counter): \(steps.count) steps in \(subevents) subevents, last step ends at \(end) µs\n"
        out += Self.row(["step", "sub", "kind", "mode", "ch", "MHz", "start_us", "dur_us", "antenna order", "tone ext", "initiator AA", "reflector AA"])
        for s in steps {
            var order = ""
            if s.mode.hasTones {
                order = "#\(s.antennaPermutationIndex) " + AntennaPermutation.order(antennaPaths: antennaPaths, index: Int(s.antennaPermutationIndex)).map { "A\($0 + 1)" }.joined(separator: " ")
            }
            out += Self.row([
                "\(s.index)", "\(s.subevent)", "\(Self.kindName(s.kind))", "\(s.mode.rawValue)", "\(s.channel)", "\(2402 + Int(s.channel))",
                "\(s.startMicroseconds)", "\(s.durationMicroseconds)", order, s.mode.hasTones ? "\(Self.toneExtensionName(s.toneExtension))" : "",
                s.accessAddresses.map { Self.hex32($0.initiator) } ?? "", s.accessAddresses.map { Self.hex32($0.reflector) } ?? "",
            ])
        }
        return out + "\n"
    }

    static func hex32(_ v: UInt32) -> String { HexText.digits(v, 8) }

    static func toneExtensionName(_ t: ToneExtension) -> StaticString {
        switch t {
        case .none: "none"
        case .initiator: "initiator"
        case .reflector: "reflector"
        case .both: "both"
        }
    }

    static func kindName(_ k: StepKind) -> StaticString {
        switch k {
        case .mode0: "mode0"
        case .main: "main"
        case .subMode: "sub_mode"
        case .repetition: "repetition"
        }
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

extension PlanReport {
    /// The JSON object `plan --json` prints (with its newline), in memory.
    public var json: String {
        let out = CommandOutput.memory()
        writeJSON(to: out)
        return out.text
    }

    /// The tables `plan` prints, in memory.
    public var table: String {
        let out = CommandOutput.memory()
        writeTable(to: out)
        return out.text
    }
}
