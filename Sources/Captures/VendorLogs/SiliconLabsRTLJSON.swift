import MCUboot
import ReflectorFirmware
import ToolJSON

/// The JSON texts Silicon Labs' RTL library (their ranging library) logs of its input and
/// output, one object each (`SiliconLabsSerialLog` joins them from the serial log's lines):
///
/// - `{"rtl_instance_id": 0, "rtl_config": {"rtl_main_mode": 1, ..., "rtl_parameters":
///   {"num_antenna_paths": 0, ...}}}`: the configuration the library was given;
/// - `{"rtl_instance_id": 0, "cs_procedure": {"cs_procedure_config": {...},
///   "initiator_subevent_data": [{"procedure_counter": 0, "frequency_compensation": 34,
///   "reference_power_level": -64, "num_steps": 75, "step_data": "<base64>"}],
///   "reflector_subevent_data": [...]}, "rtl_output": {"distance": 9.293567, "distance_raw":
///   9.293567, ..., "return_code": 0}}`: one procedure, both sides, and the library's result.
///
/// `step_data` is the subevent's raw Step_Data octets in base64 (Mode, Channel, Data_Length,
/// data per step: Core 6.0 Vol 4 Part E §7.7.65.44), as the LE CS Subevent Result events carry
/// them. A side's list holds its subevents in order; the last completes the procedure. Any other
/// object (the log's `log_version` header) is not the library's and is passed over.
enum SiliconLabsRTLJSON {
    /// What one JSON text is.
    enum Text {
        /// `rtl_config`: its N_AP when it gives 1 to 4 (the RTT recording's says 0, which is none).
        case config(antennaPaths: Int?)
        /// `cs_procedure`: both sides' subevents, each with its key path (Config_ID 0 and N_AP 1
        /// until the log's events say otherwise), and the library's distance, when it returned one.
        case procedure(subevents: [(path: String, subevent: LoggedSubevent)], vendor: VendorDistance?)
        case other
    }

    /// A value that is missing or does not mean what it must: where (a key path) and what.
    struct Failure: Error, Equatable {
        var path: String
        var message: String
    }

    /// The meaning of `document`; its subevents take `line` as where they start.
    static func read(_ document: JSONValue, line: Int) throws(Failure) -> Text {
        guard case .object(let root) = document else { return .other }
        if let config = root["rtl_config"] {
            guard case .object(let c) = config else { throw Failure(path: "rtl_config", message: "not an object") }
            guard case .object(let p)? = c["rtl_parameters"], case .number(let n)? = p["num_antenna_paths"],
                  let paths = n.integer(as: Int.self), (1...4).contains(paths) else { return .config(antennaPaths: nil) }
            return .config(antennaPaths: paths)
        }
        guard let procedure = root["cs_procedure"] else { return .other }
        guard case .object(let p) = procedure else { throw Failure(path: "cs_procedure", message: "not an object") }
        var subevents: [(path: String, subevent: LoggedSubevent)] = []
        for (key, role) in [("initiator_subevent_data", CSRole.initiator), ("reflector_subevent_data", .reflector)] {
            guard case .array(let list)? = p[key] else { throw Failure(path: "cs_procedure.\(key)", message: "missing, or not an array") }
            for (k, element) in list.enumerated() {
                let path = "cs_procedure.\(key)[\(k)]"
                var s = try subevent(element, role: role, line: line, path: path)
                s.procedureDoneStatus = k == list.count - 1 ? .complete : .partial
                subevents.append((path, s))
            }
        }
        return .procedure(subevents: subevents, vendor: try vendor(root["rtl_output"]))
    }

    /// One side's subevent: the LE CS Subevent Result fields the library was given.
    static func subevent(_ value: JSONValue, role: CSRole, line: Int, path: String) throws(Failure) -> LoggedSubevent {
        var s = LoggedSubevent(role: role, line: line)
        let compensation: Int
        do throws(ToolError) {
            let o = try JSONObjectReader(value)
            s.procedureCounter = try o.integer("procedure_counter", in: 0...UInt16.max)
            compensation = try o.integer("frequency_compensation", in: -16384...0xC000)
            s.referencePowerLevel = try o.integer("reference_power_level", in: Int8.min...Int8.max)
            s.stepsReported = try o.integer("num_steps", in: 0...160)
        } catch {
            throw failure(error, under: path)
        }
        // A signed value in 0.01 ppm, or the spec's "not available" 0xC000 as the event has it.
        guard let field = compensation == 0xC000 ? 0xC000 : LoggedSubevent.frequencyCompensation(compensation) else {
            throw Failure(path: "\(path).frequency_compensation", message: "is \(compensation); allowed: -16384 to 16383 (0.01 ppm), or 49152 (0xC000, not available)")
        }
        s.frequencyCompensation = field
        guard case .object(let o) = value, case .string(let text)? = o["step_data"] else {
            throw Failure(path: "\(path).step_data", message: "missing, or not a string")
        }
        guard let octets = Base64.decode(text.utf8) else { throw Failure(path: "\(path).step_data", message: "not base64") }
        s.stepData = octets
        return s
    }

    /// `rtl_output`'s distances; none when it is absent or the library returned an error
    /// (a non-zero `return_code`), whose distance is not a result.
    static func vendor(_ value: JSONValue?) throws(Failure) -> VendorDistance? {
        guard let value else { return nil }
        do throws(ToolError) {
            let o = try JSONObjectReader(value)
            guard try o.integer("return_code", in: Int.min...Int.max, default: 0) == 0 else { return nil }
            let distance = try o.number("distance", in: -1e6...1e6, unit: "m")
            let raw = o.optional("distance_raw") == nil ? nil : try o.number("distance_raw", in: -1e6...1e6, unit: "m")
            return VendorDistance(distance: distance, raw: raw)
        } catch {
            throw failure(error, under: "rtl_output")
        }
    }

    /// A `JSONObjectReader` error as a failure at `path`.
    private static func failure(_ error: ToolError, under path: String) -> Failure {
        if case .badKey(let key, let problem) = error { return Failure(path: "\(path).\(key)", message: problem) }
        return Failure(path: path, message: "not an object")
    }
}
