/// Walks a command's arguments: flags, their values, numbers in a range and network
/// identifiers, with one-line errors that name the flag, what was found and what is allowed.
/// Every subcommand reads its flags through it, so their messages read alike.
struct FlagReader {
    let arguments: [String]
    /// Put in front of every message (for example "tdoa plan: ").
    let prefix: String
    private var index = 0

    init(_ arguments: [String], prefix: String = "") {
        self.arguments = arguments
        self.prefix = prefix
    }

    /// The next argument, or nil after the last.
    mutating func next() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        return arguments[index]
    }

    /// The value after `flag` (not another flag).
    mutating func value(_ flag: String) throws(ToolError) -> String {
        guard let v = next(), !v.hasPrefix("--") else { throw .usage("\(prefix)\(flag) needs a value") }
        return v
    }

    /// A finite number in `range` (strictly above its lower end when `above`).
    mutating func number(_ flag: String, _ range: ClosedRange<Double>, _ unit: String, above: Bool = false) throws(ToolError) -> Double {
        let v = try value(flag)
        guard let d = Double(v), d.isFinite, range.contains(d), !(above && d == range.lowerBound) else {
            let lower = (above ? "above " : "from ") + LoopbackOptions.format(range.lowerBound)
            throw .usage("\(prefix)\(flag) must be a number \(lower) to \(LoopbackOptions.format(range.upperBound))\(unit.isEmpty ? "" : " " + unit), found '\(v)'")
        }
        return d
    }

    /// A non-negative integer (a seed).
    mutating func unsigned(_ flag: String) throws(ToolError) -> UInt64 {
        let v = try value(flag)
        guard let n = UInt64(v) else { throw .usage("\(prefix)\(flag) must be a non-negative integer, found '\(v)'") }
        return n
    }

    /// One of an enumeration's raw values.
    mutating func choice<T: RawRepresentable & CaseIterable>(_ flag: String, _: T.Type) throws(ToolError) -> T where T.RawValue == String {
        let v = try value(flag)
        guard let c = T(rawValue: v) else {
            throw .usage("\(prefix)\(flag) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), found '\(v)'")
        }
        return c
    }

    /// A 32-bit FiRa session ID, decimal or 0x hexadecimal.
    mutating func networkIdentifier(_ flag: String) throws(ToolError) -> UInt32 {
        let v = try value(flag)
        guard let n = v.lowercased().hasPrefix("0x") ? UInt32(v.dropFirst(2), radix: 16) : UInt32(v) else {
            throw .usage("\(prefix)\(flag) must be a 32-bit session ID (decimal or 0x hex), found '\(v)'")
        }
        return n
    }
}
