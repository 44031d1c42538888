import ToolJSON

/// A typed value a flag takes: how its text converts (exactly, or not at all) and, for the
/// message when it does not, what is allowed ("a number from 0.1 to 149 m"). Every command
/// builds its flags from these, so "--x must be ALLOWED, found 'TEXT'" reads alike everywhere.
public struct OptionValue<T> {
    /// What the flag accepts, in words, completing "--flag must be ..." (empty: the value's
    /// name in the help says it).
    public let allowed: String
    /// The value of the text, or nil when it is not one the flag accepts.
    public let convert: (String) -> T?

    public init(allowed: String, convert: @escaping (String) -> T?) {
        self.allowed = allowed
        self.convert = convert
    }
}

extension OptionValue {
    /// A comma-separated list of at most `maximumCount` distinct values of `item`, each
    /// converted by it ("0.5,1,3"); `allowed` says what in the message, in the plural ("a
    /// comma-separated list of numbers from -10 to 80 dB"). Empty items and repeats are refused:
    /// a repeated value would be the same grid point twice.
    public static func list<E: Equatable>(of item: OptionValue<E>, allowed: String, maximumCount: Int = 1000) -> OptionValue<[E]> {
        OptionValue<[E]>(allowed: allowed) { text in
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count <= maximumCount else { return nil }
            var values: [E] = []
            for part in parts {
                guard let v = item.convert(String(part)), !values.contains(v) else { return nil }
                values.append(v)
            }
            return values
        }
    }
}

extension OptionValue where T == String {
    /// Any text (a file name, a device path); messages name it as the help does ("FILE.svg").
    public static var text: OptionValue { OptionValue(allowed: "") { $0 } }
}

extension OptionValue where T == Double {
    /// A finite number in `range` (strictly above its lower end when `above`); `unit` follows
    /// the range in the message.
    public static func number(_ range: ClosedRange<Double>, _ unit: String, above: Bool = false) -> OptionValue {
        let lower = (above ? "above " : "from ") + NumberText.plain(range.lowerBound)
        return OptionValue(allowed: "a number \(lower) to \(NumberText.plain(range.upperBound))\(unit.isEmpty ? "" : " " + unit)") { text in
            guard let d = Double(text), d.isFinite, range.contains(d), !(above && d == range.lowerBound) else { return nil }
            return d
        }
    }
}

extension OptionValue where T: FixedWidthInteger {
    /// An integer in `range`, converted exactly (digits only, an optional sign; nothing that
    /// overflows `T`). `allowed` replaces "an integer from A to B" in the message.
    public static func integer(_ range: ClosedRange<T>, allowed: String? = nil) -> OptionValue {
        OptionValue(allowed: allowed ?? "an integer from \(range.lowerBound) to \(range.upperBound)") { text in
            guard let n = T(text), range.contains(n) else { return nil }
            return n
        }
    }
}

extension OptionValue where T == UInt64 {
    /// Any 64-bit unsigned integer (a seed).
    public static var unsigned: OptionValue { OptionValue(allowed: "a non-negative integer") { UInt64($0) } }
}

extension OptionValue where T == UInt32 {
    /// A 32-bit FiRa session ID, decimal or 0x hexadecimal.
    public static var networkIdentifier: OptionValue {
        OptionValue(allowed: "a 32-bit session ID (decimal or 0x hex)") { v in
            v.lowercased().hasPrefix("0x") ? UInt32(v.dropFirst(2), radix: 16) : UInt32(v)
        }
    }
}

extension OptionValue where T: RawRepresentable & CaseIterable, T.RawValue == String {
    /// One of an enumeration's raw values.
    public static func choice(_: T.Type) -> OptionValue {
        OptionValue(allowed: "one of " + T.allCases.map(\.rawValue).joined(separator: ", ")) { T(rawValue: $0) }
    }
}
