/// The tool's JSON parser (RFC 8259), made for files a user hands the tool, which may be
/// anything: one pass over the bytes with no backtracking (time linear in the input), nesting
/// limited to `maximumDepth` (the stack stays small), strings checked as UTF-8, numbers kept
/// as written and refused beyond the double range, duplicate keys refused. Every failure says
/// what and where, as a byte offset from the start of the text.
package struct JSONParser {
    /// The deepest nesting of arrays and objects accepted; the tool's files need 4.
    static let maximumDepth = 64
    /// The longest number literal accepted (a longer one is no number a file of ours holds).
    static let maximumNumberLength = 1000

    /// Why the text is not a JSON document, and where.
    package struct Failure: Error, CustomStringConvertible {
        package var offset: Int
        package var message: String
        /// The text is not UTF-8 at `offset` (rather than not JSON).
        package var isEncoding = false

        package var description: String {
            isEncoding ? "not valid UTF-8 (byte offset \(offset))" : "not valid JSON (byte offset \(offset): \(message))"
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The one value the text holds, with nothing but white space around it.
    mutating func document() throws(Failure) -> JSONValue {
        if let bad = Self.firstInvalidUTF8(bytes) { throw Failure(offset: bad, message: "", isEncoding: true) }
        // A UTF-8 byte order mark is tolerated, as editors write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhiteSpace()
        let v = try value()
        skipWhiteSpace()
        guard index == bytes.count else { throw fail("text after the JSON value") }
        return v
    }

    func fail(_ message: String, at offset: Int? = nil) -> Failure { Failure(offset: offset ?? index, message: message) }

    /// What stands at the current position, for a message.
    func found() -> String {
        guard index < bytes.count else { return "unexpected end of the text" }
        let b = bytes[index]
        return b >= 0x21 && b < 0x7F ? "unexpected character '\(Character(UnicodeScalar(b)))'" : "unexpected byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    mutating func skipWhiteSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func value() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail(found())
        }
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard index + n <= bytes.count, (0..<n).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] }) else { throw fail(found()) }
        index += n
    }

    mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw fail("nested deeper than \(Self.maximumDepth) levels") }
        index += 1
    }

    mutating func object() throws(Failure) -> JSONValue {
        try enter()
        var members: [String: JSONValue] = [:]
        skipWhiteSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail(index < bytes.count ? "\(found()) where a key was expected" : found()) }
            let keyOffset = index
            let key = try string()
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail(index < bytes.count ? "\(found()) where ':' was expected" : found()) }
            index += 1
            skipWhiteSpace()
            let v = try value()
            guard members.updateValue(v, forKey: key) == nil else { throw fail("duplicate key \"\(key)\"", at: keyOffset) }
            skipWhiteSpace()
            guard index < bytes.count else { throw fail(found()) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default: throw fail("\(found()) where ',' or '}' was expected")
            }
        }
    }

    mutating func array() throws(Failure) -> JSONValue {
        try enter()
        var elements: [JSONValue] = []
        skipWhiteSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhiteSpace()
            elements.append(try value())
            skipWhiteSpace()
            guard index < bytes.count else { throw fail(found()) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default: throw fail("\(found()) where ',' or ']' was expected")
            }
        }
    }

    /// A string literal (the text is valid UTF-8 already; escapes are decoded here).
    mutating func string() throws(Failure) -> String {
        index += 1  // the opening quote
        var out: [UInt8] = []
        var start = index
        while true {
            guard index < bytes.count else { throw fail("unexpected end of the text inside a string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[start..<index])
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 {
                throw fail("control character U+\(fourHexDigits(b)) inside a string (it must be escaped)")
            }
            guard b == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            out.append(contentsOf: bytes[start..<index])
            let escapeOffset = index
            index += 1
            guard index < bytes.count else { throw fail("unexpected end of the text inside a string") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(escapeOffset)
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw fail("a lone surrogate \\u\(fourHexDigits(scalar)) inside a string", at: escapeOffset)
                    }
                    index += 2
                    let low = try hex4(escapeOffset)
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone surrogate \\u\(fourHexDigits(scalar)) inside a string", at: escapeOffset) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("a lone surrogate \\u\(fourHexDigits(scalar)) inside a string", at: escapeOffset)
                }
                out.append(contentsOf: String(Character(UnicodeScalar(scalar)!)).utf8)
            default:
                throw fail("invalid escape inside a string", at: escapeOffset)
            }
            start = index
        }
    }

    /// Four hexadecimal digits of a \u escape.
    mutating func hex4(_ escapeOffset: Int) throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("an incomplete \\u escape inside a string", at: escapeOffset) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw fail("an invalid \\u escape inside a string", at: escapeOffset)
            }
            v = v << 4 | UInt32(d)
            index += 1
        }
        return v
    }

    /// A number literal: its grammar checked here, its value kept exactly (`JSONNumber`).
    mutating func number() throws(Failure) -> JSONNumber {
        let start = index
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
            return p.index - s
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { throw fail("a '-' without digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { throw fail("a number with a leading zero", at: start) }
        } else {
            _ = digits(&self)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("a '.' without digits after it") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("an exponent without digits") }
        }
        guard index - start <= Self.maximumNumberLength else {
            throw fail("a number \(index - start) characters long; allowed: at most \(Self.maximumNumberLength)", at: start)
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let d = Double(literal), d.isFinite else {
            let shown = literal.count <= 40 ? literal : String(literal.prefix(37)) + "..."
            throw fail("the number \(shown) is beyond the range of a double (about ±1.8e308)", at: start)
        }
        return JSONNumber(validLiteral: literal, double: d)
    }

    /// The offset of the first byte that is not part of well-formed UTF-8 (no overlong forms,
    /// no surrogates, nothing above U+10FFFF), or nil.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return i
            }
            guard i + length <= n else { return i }
            guard (lower...upper).contains(bytes[i + 1]) else { return i }
            for k in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[i + k]) { return i }
            i += length
        }
        return nil
    }
}

/// Four upper-case hexadecimal digits.
private func fourHexDigits<T: BinaryInteger>(_ v: T) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}
