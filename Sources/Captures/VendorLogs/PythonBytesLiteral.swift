/// A Python bytes literal as `repr()` writes it (`b'\xbb[I] ok\n'`, `b"it's"`), which is how
/// Silicon Labs' serial-log tools print the octets of a log line or an event's byte fields. The
/// escapes read are those of Python's bytes literals: `\\ \' \" \a \b \f \n \r \t \v`, `\xhh`
/// and one to three octal digits; any other character stands for its own UTF-8 octets.
enum PythonBytesLiteral {
    /// Why a literal does not read, in words for a one-line message.
    struct Failure: Error, Equatable {
        var message: String
    }

    /// The octets of the literal at the start of `text` (its `b` prefix optional when `bytes` is
    /// false, for a `str` field), and the text after its closing quote.
    static func read(_ text: Substring, bytes: Bool = true) throws(Failure) -> (octets: [UInt8], rest: Substring) {
        var s = text.utf8[...]
        if bytes {
            guard s.first == UInt8(ascii: "b") else { throw Failure(message: "not a bytes literal (b'...')") }
            s = s.dropFirst()
        }
        guard let quote = s.first, quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") else {
            throw Failure(message: "no opening quote")
        }
        s = s.dropFirst()
        var out: [UInt8] = []
        while let c = s.popFirst() {
            if c == quote { return (out, Substring(s)) }
            guard c == UInt8(ascii: "\\") else {
                out.append(c)
                continue
            }
            guard let e = s.popFirst() else { break }
            switch e {
            case UInt8(ascii: "x"):
                let digits = Array(s.prefix(2))
                guard digits.count == 2, let hi = hexValue(digits[0]), let lo = hexValue(digits[1]) else {
                    throw Failure(message: "\\x not followed by two hex digits")
                }
                out.append(hi << 4 | lo)
                s = s.dropFirst(2)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var v = Int(e - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let d = s.first, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(d) else { break }
                    v = v * 8 + Int(d - UInt8(ascii: "0"))
                    s = s.dropFirst()
                }
                // Python refuses an octal escape above 0o377 in bytes.
                guard v <= 0xFF else { throw Failure(message: "octal escape above \\377") }
                out.append(UInt8(v))
            default:
                guard let octet = simpleEscapes[e] else {
                    throw Failure(message: "unknown escape \\\(String(decoding: [e], as: UTF8.self))")
                }
                out.append(octet)
            }
        }
        throw Failure(message: "no closing quote: the line is cut short")
    }

    /// `\n` and the like: the escaped character and its octet.
    private static let simpleEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "'"): 0x27, UInt8(ascii: "\""): 0x22, UInt8(ascii: "a"): 0x07, UInt8(ascii: "b"): 0x08,
        UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09, UInt8(ascii: "v"): 0x0B,
    ]

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
