/// A text log's lines, numbered from 1, with a trailing carriage return removed; octets that
/// are not UTF-8 are replaced (such a line is then garbage to the reader, not a trap).
struct LogLines: Sequence {
    let text: [Substring]

    init(_ bytes: [UInt8]) {
        let s = String(decoding: bytes, as: UTF8.self)
        text = s.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
    }

    /// The number of the last line (a final newline ends the last line, it does not start one).
    var lastLine: Int { text.last?.isEmpty == true ? text.count - 1 : text.count }

    func makeIterator() -> some IteratorProtocol<(number: Int, text: Substring)> {
        text.enumerated().lazy.map { (number: $0.offset + 1, text: $0.element) }.makeIterator()
    }

    /// The octets of a line of hex digits, pairs optionally separated by spaces; `nil` when the
    /// line holds anything else (or an odd digit).
    static func hexOctets(_ line: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        var high: UInt8?
        for c in line.utf8 {
            if c == 0x20 || c == 0x09 {
                guard high == nil else { return nil }
                continue
            }
            let v: UInt8
            switch c {
            case 0x30...0x39: v = c - 0x30
            case 0x41...0x46: v = c - 0x41 + 10
            case 0x61...0x66: v = c - 0x61 + 10
            default: return nil
            }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return high == nil ? out : nil
    }

    /// A whole decimal number, optionally signed, with an optional unit after a space
    /// (`-474`, `888 bytes`, `0 (Initiator)`); `nil` otherwise or when it does not fit 32 bits.
    static func integer(_ value: Substring) -> Int? {
        let token = value.split(separator: " ", maxSplits: 1).first ?? ""
        guard token.count <= 11, let v = Int32(token) else { return nil }
        return Int(v)
    }
}
