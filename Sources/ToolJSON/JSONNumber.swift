/// A JSON number kept as written, so that a whole number converts exactly to the integer type
/// of the field that reads it, or not at all: 9223372036854775808 does not fit an `Int` and
/// says so, where a `Double` would have rounded it to 2^63 and trapped in `Int(_:)`. The double
/// value is the literal correctly rounded; the parser refuses literals beyond the double range
/// (1e400), so `double` is always finite.
public struct JSONNumber: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The literal as it stood in the text ("-12", "2.50", "1e3").
    public let literal: String
    /// The literal's value rounded to the nearest double (finite).
    public let double: Double
    /// The decimal digits of the value when it is a whole number of at most 40 digits
    /// (sign first, no leading zeros, "0" for zero); nil otherwise.
    public let integerText: String?

    /// The most digits `integerText` spells out (more than any 128-bit integer has).
    static let maximumIntegerDigits = 40

    /// A number from a literal that has JSON's grammar (the parser checked it).
    init(validLiteral literal: String, double: Double) {
        self.literal = literal
        self.double = double
        integerText = Self.integerText(literal)
    }

    /// A number from an integer (for values a program builds).
    public init<T: BinaryInteger>(_ v: T) {
        literal = String(v)
        double = Double(v)
        integerText = literal
    }

    /// The value as `T` when it is a whole number `T` can hold exactly; nil otherwise.
    public func integer<T: FixedWidthInteger>(as _: T.Type = T.self) -> T? {
        guard let text = integerText else { return nil }
        return T(text)
    }

    public var isInteger: Bool { integerText != nil }

    /// How messages print the number: its integer digits, else the literal (cut when long).
    public var description: String {
        if let integerText { return integerText }
        return literal.count <= 40 ? literal : String(literal.prefix(37)) + "..."
    }

    public static func == (a: JSONNumber, b: JSONNumber) -> Bool { a.double == b.double && a.integerText == b.integerText }

    public func hash(into h: inout Hasher) {
        h.combine(double)
        h.combine(integerText)
    }

    /// The exact integer digits of a valid literal, or nil when it is not a whole number or
    /// has more than `maximumIntegerDigits` digits.
    static func integerText(_ literal: String) -> String? {
        var bytes = Substring(literal).utf8[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var inFraction = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let b = bytes[index]
            if b == UInt8(ascii: ".") {
                inFraction = true
            } else if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                var rest = bytes[bytes.index(after: index)...]
                var exponentNegative = false
                if let s = rest.first, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") {
                    exponentNegative = s == UInt8(ascii: "-")
                    rest = rest.dropFirst()
                }
                // Saturates: any exponent beyond a million gives no 40-digit integer anyway
                // (zero aside, which the digits decide).
                for d in rest { exponent = min(exponent * 10 + Int(d - UInt8(ascii: "0")), 1_000_000) }
                if exponentNegative { exponent = -exponent }
                break
            } else {
                // Leading zeros are no digits, but a fraction's still count as places.
                if !(digits.isEmpty && b == UInt8(ascii: "0")) { digits.append(b) }
                if inFraction { fractionDigits += 1 }
            }
            index = bytes.index(after: index)
        }
        // value = digits × 10^(exponent − fractionDigits), digits without leading zeros
        let scale = exponent - fractionDigits
        guard !digits.isEmpty else { return "0" }
        if scale >= 0 {
            guard digits.count + scale <= maximumIntegerDigits else { return nil }
            digits += [UInt8](repeating: UInt8(ascii: "0"), count: scale)
        } else {
            let drop = -scale
            // The first digit is not a zero, so all the dropped places must be zeros after it.
            guard drop < digits.count, digits.suffix(drop).allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
            digits.removeLast(drop)
            guard digits.count <= maximumIntegerDigits else { return nil }
        }
        return (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
    }
}
