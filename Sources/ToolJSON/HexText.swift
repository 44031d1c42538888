/// Hexadecimal as the tool reads and writes it, in one place: octets as digit pairs (keys,
/// nonces, hashes), fixed-width numbers (opcodes, addresses of anchors), and Bluetooth device
/// addresses as they are written, XX:XX:XX:XX:XX:XX with the most significant octet first.
package enum HexText {
    /// `value` in `count` upper-case digits, zero-padded (more when it does not fit).
    package static func digits(_ value: some BinaryInteger, _ count: Int) -> String {
        let s = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, count - s.count)) + s
    }

    /// Two digits per octet, upper case unless `lowercase`.
    package static func octets(_ bytes: some Sequence<UInt8>, lowercase: Bool = false) -> String {
        let table = Array((lowercase ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
        var out: [UInt8] = []
        for b in bytes {
            out.append(table[Int(b >> 4)])
            out.append(table[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Octets from hex digits, two per octet; nil for an odd count or anything but 0-9, a-f, A-F.
    package static func octets(parsing text: some StringProtocol) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let hi = value(digits[i]), let lo = value(digits[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }

    /// An address as it is written: XX:XX:XX:XX:XX:XX, most significant octet first.
    package static func address(_ address: UInt64) -> String {
        addressOctets(address).map { octets([$0]) }.joined(separator: ":")
    }

    /// XX:XX:XX:XX:XX:XX, most significant octet first; nil for anything else.
    package static func address(parsing text: some StringProtocol) -> UInt64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var v: UInt64 = 0
        for p in parts {
            guard p.utf8.count == 2, let b = octets(parsing: p)?.first else { return nil }
            v = v << 8 | UInt64(b)
        }
        return v
    }

    /// A 48-bit address's octets, most significant first.
    package static func addressOctets(_ address: UInt64) -> [UInt8] { (0..<6).reversed().map { UInt8(truncatingIfNeeded: address >> UInt64(8 * $0)) } }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x41...0x46: digit - 0x41 + 10
        case 0x61...0x66: digit - 0x61 + 10
        default: nil
        }
    }
}
