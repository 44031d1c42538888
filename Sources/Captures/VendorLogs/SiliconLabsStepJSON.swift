import ReflectorFirmware
import ToolJSON

/// The JSON Silicon Labs' `cs_step_data_parser` writes from their step-data dump
/// (SiliconLabs/bluetooth_stack_features, `tools/channel_sounding/cs_step_data_parser`,
/// `step_data/StepData.py`): per procedure both sides' steps, one object per step named
/// `step_1`, `step_2`, … with the Step_Data fields of Core 6.0 Vol 4 Part E §7.7.65.44 by their
/// spec names:
///
/// - mode 0: `Packet_Quality`, `Packet_RSSI`, `Packet_Antenna`, and on the initiator `Measured_Freq_Offset`;
/// - mode 1: `Packet_Quality`, `Packet_NADM`, `Packet_RSSI`, `ToA_ToD_Initiator` or `ToA_ToD_Reflector`, `Packet_Antenna`;
/// - mode 2: `Antenna_Permutation_Index`, `Tone_PCT` (N_AP + 1 packed 24-bit values) and
///   `Tone_Quality_Indicator` (as many octets).
///
/// Two layouts are read: `{"cs_procedures": [{"initiator_step_data": {"initiator_step_data":
/// {steps}}, "reflector_step_data": {…}}]}` (their example output) and `{"cs_procedure":
/// [{"initiator_step_data": {steps}}, {"reflector_step_data": {steps}}]}` (their current
/// parser): sides in order, a new procedure where a side repeats. Procedures are numbered 0, 1, …
/// (the JSON has no counter), N_AP is the length of `Tone_PCT` less one. Their parser leaves a
/// mode-3 step's fields out, so such a step cannot be read and is refused. Each step is turned
/// back into its octets and read by the same decoder as the events'. A value that is missing or
/// out of range stops the reading with its key path; the procedures before it are kept.
enum SiliconLabsStepJSON {
    static func matches(_ head: [UInt8]) -> Bool {
        guard head.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{") else { return false }
        let text = String(decoding: head.prefix(1 << 16), as: UTF8.self)
        return text.contains("\"cs_procedure") && text.contains("_step_data\"")
    }

    struct Failure: Error {
        var path: String
        var message: String
    }

    static func read(_ bytes: [UInt8]) -> CaptureProcedures {
        var out = CaptureProcedures()
        let document: JSONValue
        do throws(ToolError) {
            document = try JSONValue.parse(bytes: bytes)
        } catch {
            // The parser's own message names the byte offset.
            let text = error.description
            let offset = Int(text.split(separator: " ").dropFirst(2).first.map { $0.filter(\.isNumber) } ?? "") ?? 0
            out.append(CaptureProblem(offset: offset, message: text))
            return out
        }
        var procedures = LoggedProcedures(origin: .siliconLabsLog)
        var counter = -1
        var done: Set<CSRole> = []
        do throws(Failure) {
            guard case .object(let root) = document else { throw Failure(path: "the document", message: "not an object") }
            let name = root["cs_procedures"] != nil ? "cs_procedures" : "cs_procedure"
            guard case .array(let list)? = root[name] else { throw Failure(path: name, message: "missing, or not an array") }
            for (i, element) in list.enumerated() {
                guard case .object(let entry) = element else { throw Failure(path: "\(name)[\(i)]", message: "not an object") }
                for role in [CSRole.initiator, .reflector] {
                    let key = role == .initiator ? "initiator_step_data" : "reflector_step_data"
                    guard var side = entry[key] else { continue }
                    var path = "\(name)[\(i)].\(key)"
                    if case .object(let inner) = side, let nested = inner[key] {
                        side = nested
                        path += ".\(key)"
                    }
                    if counter < 0 || done.contains(role) {
                        counter += 1
                        done = []
                    }
                    done.insert(role)
                    var subevent = LoggedSubevent(role: role, line: counter)
                    subevent.procedureCounter = UInt16(truncatingIfNeeded: counter)
                    (subevent.stepData, subevent.antennaPaths, subevent.stepsReported) = try steps(side, role: role, path: path)
                    do throws(LogLineError) {
                        try procedures.add(subevent, endLine: counter)
                    } catch {
                        throw Failure(path: path, message: error.message)
                    }
                }
            }
        } catch {
            var capture = procedures.capture
            capture.append(CaptureProblem(keyPath: error.path, procedure: max(0, counter), message: error.message))
            return capture
        }
        return procedures.capture
    }

    /// The step octets of one side, its N_AP and step count.
    static func steps(_ value: JSONValue, role: CSRole, path: String) throws(Failure) -> ([UInt8], Int, Int) {
        guard case .object(let object) = value else { throw Failure(path: path, message: "not an object of steps") }
        var numbered: [(Int, String, [String: JSONValue])] = []
        for (key, step) in object {
            guard key.hasPrefix("step_"), let n = Int(key.dropFirst(5)), case .object(let fields) = step else {
                throw Failure(path: "\(path).\(key)", message: "not a step (step_N: {...})")
            }
            numbered.append((n, key, fields))
        }
        numbered.sort { $0.0 < $1.0 }
        var bytes: [UInt8] = []
        var antennaPaths = 1
        for (_, key, fields) in numbered {
            let at = "\(path).\(key)"
            func int(_ name: String, _ range: ClosedRange<Int>) throws(Failure) -> Int {
                guard case .number(let n)? = fields[name], let v = n.integer(as: Int.self), range.contains(v) else {
                    throw Failure(path: "\(at).\(name)", message: fields[name] == nil ? "missing" : "not a whole number in \(range.lowerBound)...\(range.upperBound)")
                }
                return v
            }
            func ints(_ name: String, _ range: ClosedRange<Int>) throws(Failure) -> [Int] {
                guard case .array(let list)? = fields[name] else { throw Failure(path: "\(at).\(name)", message: "missing, or not an array") }
                var out: [Int] = []
                for (k, item) in list.enumerated() {
                    guard case .number(let n) = item, let v = n.integer(as: Int.self), range.contains(v) else {
                        throw Failure(path: "\(at).\(name)[\(k)]", message: "not a whole number in \(range.lowerBound)...\(range.upperBound)")
                    }
                    out.append(v)
                }
                return out
            }
            let mode = try int("Step_Mode", 0...3)
            let channel = try int("Step_Channel", 0...78)
            var data: [UInt8] = []
            switch mode {
            case 0:
                data = [UInt8(try int("Packet_Quality", 0...255)), UInt8(bitPattern: Int8(try int("Packet_RSSI", -128...127))),
                        UInt8(try int("Packet_Antenna", 0...255))]
                if role == .initiator {
                    let offset = try int("Measured_Freq_Offset", 0...65535)
                    data += [UInt8(offset & 0xFF), UInt8(offset >> 8)]
                }
            case 1:
                let toa = try int(role == .initiator ? "ToA_ToD_Initiator" : "ToA_ToD_Reflector", 0...65535)
                data = [UInt8(try int("Packet_Quality", 0...255)), UInt8(try int("Packet_NADM", 0...255)),
                        UInt8(bitPattern: Int8(try int("Packet_RSSI", -128...127))), UInt8(toa & 0xFF), UInt8(toa >> 8),
                        UInt8(try int("Packet_Antenna", 0...255))]
            case 2:
                let pcts = try ints("Tone_PCT", 0...0xFF_FFFF)
                let qualities = try ints("Tone_Quality_Indicator", 0...255)
                guard (2...5).contains(pcts.count), qualities.count == pcts.count else {
                    throw Failure(path: "\(at).Tone_PCT", message: "\(pcts.count) tones with \(qualities.count) quality indicators (2 to 5 of each expected)")
                }
                antennaPaths = pcts.count - 1
                data = [UInt8(try int("Antenna_Permutation_Index", 0...255))]
                for (pct, q) in zip(pcts, qualities) {
                    data += [UInt8(pct & 0xFF), UInt8((pct >> 8) & 0xFF), UInt8(pct >> 16), UInt8(q)]
                }
            default:
                throw Failure(path: at, message: "a mode-3 step, whose fields the parser's JSON leaves out")
            }
            guard data.count <= 255 else { throw Failure(path: at, message: "step data too long") }
            bytes += [UInt8(mode), UInt8(channel), UInt8(data.count)] + data
        }
        return (bytes, antennaPaths, numbered.count)
    }

    /// Their example output's layout for `capture`'s procedures (initiator and reflector of the
    /// same counter side by side), for tests and seeds: what their parser writes from a dump.
    static func encode(_ capture: CaptureProcedures) -> String {
        func side(_ p: CapturedProcedure) -> String {
            let role = p.role == .initiator ? "initiator" : "reflector"
            var steps: [String] = []
            for (k, step) in p.results.steps.enumerated() {
                var fields = ["\"Step_Mode\": \(step.mode.rawValue)", "\"Step_Channel\": \(step.channel)", "\"Step_Data_Length\": \(step.data.encodedLength)"]
                switch step.data {
                case .mode0(let m):
                    fields += ["\"Packet_Quality\": \(m.packetQuality.octet)", "\"Packet_RSSI\": \(m.packetRSSI)", "\"Packet_Antenna\": \(m.packetAntenna)"]
                    if let f = m.measuredFrequencyOffset { fields.append("\"Measured_Freq_Offset\": \(f)") }
                case .mode1(let m):
                    fields += ["\"Packet_Quality\": \(m.packetQuality.octet)", "\"Packet_NADM\": \(m.packetNADM)", "\"Packet_RSSI\": \(m.packetRSSI)",
                               "\"ToA_ToD_\(p.role == .initiator ? "Initiator" : "Reflector")\": \(UInt16(bitPattern: m.toaTod))", "\"Packet_Antenna\": \(m.packetAntenna)"]
                case .mode2(let t), .mode3(_, let t):
                    let tones = t.toneArray
                    fields += ["\"Antenna_Permutation_Index\": \(t.antennaPermutationIndex)",
                               "\"Tone_PCT\": [" + tones.map { String($0.pct.packed) }.joined(separator: ", ") + "]",
                               "\"Tone_Quality_Indicator\": [" + tones.map { String($0.quality.octet) }.joined(separator: ", ") + "]"]
                }
                steps.append("\"step_\(k + 1)\": {" + fields.joined(separator: ", ") + "}")
            }
            return "\"\(role)_step_data\": {\"\(role)_step_data\": {" + steps.joined(separator: ", ") + "}}"
        }
        var entries: [String] = []
        let initiators = capture.procedures.filter { $0.role == .initiator }
        let reflectors = capture.procedures.filter { $0.role == .reflector }
        for (k, i) in initiators.enumerated() {
            var parts = ["\"metadata\": {}", side(i)]
            if k < reflectors.count { parts.append(side(reflectors[k])) }
            entries.append("{" + parts.joined(separator: ", ") + "}")
        }
        return "{\"cs_procedures\": [" + entries.joined(separator: ",\n") + "]}\n"
    }
}
