/// Reads typed values out of a JSON object and reports a missing or wrong key with the values
/// it allows, so a user can fix a configuration file from the message alone.
public struct JSONObjectReader {
    public let object: [String: JSONValue]

    public init(_ value: JSONValue) throws(ToolError) {
        guard case .object(let o) = value else { throw .badFile("the top level must be a JSON object, found \(value.brief)") }
        object = o
    }

    /// The value of `key`, or nil when it is absent.
    public func optional(_ key: String) -> JSONValue? { object[key] }

    /// An integer in `range`; `default` when the key is absent (required when `default` is nil).
    public func integer(_ key: String, in range: ClosedRange<Int>, default def: Int? = nil) throws(ToolError) -> Int {
        let allowed = "an integer from \(range.lowerBound) to \(range.upperBound)"
        guard let v = object[key] else {
            if let def { return def }
            throw .badKey(key: key, problem: "is missing; allowed: \(allowed)")
        }
        guard case .number(let n) = v, n == n.rounded(), n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            throw .badKey(key: key, problem: "is \(v.brief); allowed: \(allowed)")
        }
        return Int(n)
    }

    /// A number in `range` (`unit` names it in the message); `default` when the key is absent
    /// (required when `default` is nil).
    public func number(_ key: String, in range: ClosedRange<Double>, unit: String, default def: Double? = nil) throws(ToolError) -> Double {
        let allowed = "a number from \(NumberText.plain(range.lowerBound)) to \(NumberText.plain(range.upperBound))" + (unit.isEmpty ? "" : " \(unit)")
        guard let v = object[key] else {
            if let def { return def }
            throw .badKey(key: key, problem: "is missing; allowed: \(allowed)")
        }
        guard case .number(let n) = v, range.contains(n) else { throw .badKey(key: key, problem: "is \(v.brief); allowed: \(allowed)") }
        return n
    }

    /// An integer from a fixed list of values (for example the spec's T_IP1 times).
    public func integer(_ key: String, oneOf values: [Int], default def: Int? = nil) throws(ToolError) -> Int {
        let allowed = "one of " + values.map(String.init).joined(separator: ", ")
        guard let v = object[key] else {
            if let def { return def }
            throw .badKey(key: key, problem: "is missing; allowed: \(allowed)")
        }
        guard case .number(let n) = v, n == n.rounded(), values.contains(Int(n)) else {
            throw .badKey(key: key, problem: "is \(v.brief); allowed: \(allowed)")
        }
        return Int(n)
    }

    /// A string from a fixed list (compared exactly).
    public func choice(_ key: String, oneOf values: [String], default def: String? = nil) throws(ToolError) -> String {
        let allowed = "one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
        guard let v = object[key] else {
            if let def { return def }
            throw .badKey(key: key, problem: "is missing; allowed: \(allowed)")
        }
        guard case .string(let s) = v, values.contains(s) else { throw .badKey(key: key, problem: "is \(v.brief); allowed: \(allowed)") }
        return s
    }

    public func bool(_ key: String, default def: Bool? = nil) throws(ToolError) -> Bool {
        guard let v = object[key] else {
            if let def { return def }
            throw .badKey(key: key, problem: "is missing; allowed: true or false")
        }
        guard case .bool(let b) = v else { throw .badKey(key: key, problem: "is \(v.brief); allowed: true or false") }
        return b
    }

    /// A string of exactly `digits` hexadecimal digits.
    public func hex(_ key: String, digits: Int, default def: String? = nil) throws(ToolError) -> String {
        let allowed = "a string of \(digits) hexadecimal digits, most significant octet first"
        guard let v = object[key] else {
            if let def { return def }
            throw .badKey(key: key, problem: "is missing; allowed: \(allowed)")
        }
        guard case .string(let s) = v, s.count == digits, s.allSatisfy(\.isHexDigit) else {
            throw .badKey(key: key, problem: "is \(v.brief); allowed: \(allowed)")
        }
        return s
    }
}
