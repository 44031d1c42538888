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

    /// A whole number in `range`, converted exactly to `T` (2^63 is not an `Int`, 3.5 is no
    /// integer, 1e2 is 100); `default` when the key is absent (required when `default` is nil).
    public func integer<T: FixedWidthInteger>(_ key: String, in range: ClosedRange<T>, default def: T? = nil) throws(ToolError) -> T {
        let allowed = "an integer from \(range.lowerBound) to \(range.upperBound)"
        guard let v = object[key] else {
            if let def { return def }
            throw .badKey(key: key, problem: "is missing; allowed: \(allowed)")
        }
        guard case .number(let n) = v, let i = n.integer(as: T.self), range.contains(i) else {
            throw .badKey(key: key, problem: "is \(v.brief); allowed: \(allowed)")
        }
        return i
    }

    /// A number in `range` (`unit` names it in the message); `default` when the key is absent
    /// (required when `default` is nil).
    public func number(_ key: String, in range: ClosedRange<Double>, unit: String, default def: Double? = nil) throws(ToolError) -> Double {
        let allowed = "a number from \(NumberText.plain(range.lowerBound)) to \(NumberText.plain(range.upperBound))" + (unit.isEmpty ? "" : " \(unit)")
        guard let v = object[key] else {
            if let def { return def }
            throw .badKey(key: key, problem: "is missing; allowed: \(allowed)")
        }
        guard case .number(let n) = v, range.contains(n.double) else { throw .badKey(key: key, problem: "is \(v.brief); allowed: \(allowed)") }
        return n.double
    }

    /// An integer from a fixed list of values (for example the spec's T_IP1 times).
    public func integer(_ key: String, oneOf values: [Int], default def: Int? = nil) throws(ToolError) -> Int {
        let allowed = "one of " + values.map(String.init).joined(separator: ", ")
        guard let v = object[key] else {
            if let def { return def }
            throw .badKey(key: key, problem: "is missing; allowed: \(allowed)")
        }
        guard case .number(let n) = v, let i = n.integer(as: Int.self), values.contains(i) else {
            throw .badKey(key: key, problem: "is \(v.brief); allowed: \(allowed)")
        }
        return i
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

    /// 0-9, a-f, A-F (not the fullwidth forms `Character.isHexDigit` also takes, which no
    /// radix conversion reads).
    package static func isASCIIHexDigit(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b)
    }

    /// A string of exactly `digits` ASCII hexadecimal digits.
    public func hex(_ key: String, digits: Int, default def: String? = nil) throws(ToolError) -> String {
        let allowed = "a string of \(digits) hexadecimal digits, most significant octet first"
        guard let v = object[key] else {
            if let def { return def }
            throw .badKey(key: key, problem: "is missing; allowed: \(allowed)")
        }
        guard case .string(let s) = v, s.utf8.count == digits, s.utf8.allSatisfy(Self.isASCIIHexDigit) else {
            throw .badKey(key: key, problem: "is \(v.brief); allowed: \(allowed)")
        }
        return s
    }
}
