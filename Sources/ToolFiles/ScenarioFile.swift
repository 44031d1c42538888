import Foundation
import ToolJSON

/// A `nearby --scenario FILE.json` file: a JSON object whose keys are `nearby`'s flags without
/// the dashes ("camera": false is --no-camera; "background" and "coexistence" take a list of
/// the flags' values). It stands for those flags, so every value goes through the same checks
/// as on the command line, and flags after `--scenario` override it.
public enum ScenarioFile {
    /// The keys a scenario may have.
    public static let keys = ["distance", "duration", "phone", "accessory", "hint", "camera", "coexistence", "background", "channel", "snr", "seed"]

    /// Reads the file at `path` and returns the flags it stands for; errors name the file.
    public static func read(path: String) throws(ToolError) -> [String] {
        try JSONFile.read(path) { (v) throws(ToolError) in try arguments(v) }
    }

    /// The flags the JSON text `data` stands for.
    public static func parse(_ data: Data) throws(ToolError) -> [String] {
        try arguments(JSONValue.parse(data))
    }

    /// The flags a scenario's object stands for, keys in sorted order.
    public static func arguments(_ json: JSONValue) throws(ToolError) -> [String] {
        let r = try JSONObjectReader(json)
        var flags: [String] = []
        for key in r.object.keys.sorted() {
            guard keys.contains(key) else {
                throw .badKey(key: key, problem: "is not a scenario key; allowed: " + keys.joined(separator: ", "))
            }
            let value = r.object[key]!
            if key == "camera" {
                if try !r.bool(key) { flags.append("--no-camera") }
                continue
            }
            let values: [JSONValue]
            if key == "background" || key == "coexistence" {
                guard case .array(let list) = value else { throw .badKey(key: key, problem: "is \(value.brief); allowed: a list of --\(key) values") }
                values = list
            } else {
                values = [value]
            }
            for v in values {
                let text: String
                switch v {
                case .string(let s): text = s
                // A whole number as its digits (1e3 is --seed 1000), else as written.
                case .number(let n): text = n.integerText ?? n.literal
                default: throw .badKey(key: key, problem: "is \(v.brief); allowed: a number or a string as --\(key) takes it")
                }
                flags += ["--" + key, text]
            }
        }
        return flags
    }
}
