/// Hexadecimal text for test vectors, as the specification prints them.
public enum Hex {
    /// Bytes from hex digits; spaces, underscores and colons between octets are ignored. Traps
    /// on a malformed literal, which is a bug in the test, not an input.
    public static func bytes(_ text: String) -> [UInt8] {
        let digits = text.filter { $0.isHexDigit }
        precondition(digits.count == text.filter { !" _:\n".contains($0) }.count && digits.count % 2 == 0,
                     "not a hex literal: \(text)")
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            out.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    /// Hex digits, two per byte, no separators; lower case unless `uppercase` (the spec's
    /// sample data is printed in upper case).
    public static func string<C: Collection>(_ bytes: C, uppercase: Bool = false) -> String where C.Element == UInt8 {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
