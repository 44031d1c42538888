import Foundation
import ToolJSON

/// A `reflector-emu sweep SPEC.json` file: a JSON object whose keys are `sweep`'s grid flags
/// without the dashes (`SweepSpec.fields`: "distances", "channels", "snr", "antenna-paths",
/// "pct", "estimators", "seeds", "procedures", "seed"). A list is a JSON array (`"snr": [15,
/// 20]`) or a string as the flag takes it (`"distances": "1:30:5"`); one value stands for a list
/// of one. Every value goes through the flag's own converter, so the file and the command line
/// accept the same values; a wrong one is refused with the key, what it held and what is
/// allowed. Keys the file leaves out keep the values they had (the defaults, or flags given
/// before the file), and flags after the file override it. The "spec" object of a sweep's JSON
/// output and of its shards has this form.
public enum SweepSpecFile {
    /// Reads the file at `path` into `spec`; errors name the file.
    public static func read(path: String, into spec: inout SweepSpec) throws(ToolError) {
        try JSONFile.read(path) { (v) throws(ToolError) in try apply(v, to: &spec) }
    }

    /// Reads the JSON text `data` into `spec`.
    public static func parse(_ data: Data, into spec: inout SweepSpec) throws(ToolError) {
        try apply(JSONValue.parse(data), to: &spec)
    }

    /// Sets the keys of the JSON object `json` in `spec`, in sorted key order (the keys are
    /// independent, so the order only fixes which error is reported first).
    public static func apply(_ json: JSONValue, to spec: inout SweepSpec) throws(ToolError) {
        let r = try JSONObjectReader(json)
        let fields = SweepSpec.fields
        for key in r.object.keys.sorted() {
            guard let field = fields.first(where: { $0.key == key }) else {
                throw .badKey(key: key, problem: "is not a sweep key; allowed: " + fields.map(\.key).joined(separator: ", "))
            }
            let value = r.object[key]!
            let allowed = field.allowed + (field.isList ? " (or a JSON array of them)" : "")
            let refused = ToolError.badKey(key: key, problem: "is \(shown(value)); allowed: \(allowed)")
            guard let text = flagText(value, list: field.isList), field.set(&spec, text) else { throw refused }
        }
    }

    /// The flag's text for a key's value: a number as written (a whole number as its digits, so
    /// 1e3 is 1000), a string as it is, an array of those joined by commas (lists only); nil for
    /// anything else.
    static func flagText(_ value: JSONValue, list: Bool) -> String? {
        switch value {
        case .string(let s): return s
        case .number(let n): return n.integerText ?? n.literal
        case .array(let items) where list && !items.isEmpty:
            var parts: [String] = []
            for item in items {
                switch item {
                case .number(let n): parts.append(n.integerText ?? n.literal)
                // An item holding a comma would split into two: refused as it stands.
                case .string(let s) where !s.contains(","): parts.append(s)
                default: return nil
                }
            }
            return parts.joined(separator: ",")
        default: return nil
        }
    }

    /// A value as the message shows it: scalars as `JSONValue.brief` does, an array of them in
    /// brackets (cut after 60 characters).
    static func shown(_ value: JSONValue) -> String {
        guard case .array(let items) = value else { return value.brief }
        let text = "[" + items.map(\.brief).joined(separator: ", ") + "]"
        return text.count <= 60 ? text : String(text.prefix(57)) + "...]"
    }
}
