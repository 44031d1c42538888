/// Base64 with the standard alphabet and '=' padding (RFC 4648 §4), as the SMP console framing
/// uses it (Zephyr `smp_transport.rst`; MCUboot `boot_serial.c` base64_encode/base64_decode).
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The value of each ASCII character, 0xFF when not in the alphabet.
    private static let values: [UInt8] = {
        var t = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { t[Int(c)] = UInt8(i) }
        return t
    }()

    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let b0 = bytes[i]
            let b1 = i + 1 < bytes.count ? bytes[i + 1] : 0
            let b2 = i + 2 < bytes.count ? bytes[i + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(i + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            i += 3
        }
        return out
    }

    /// Decodes padded base64; nil when the length is not a multiple of 4, a character is outside
    /// the alphabet, or padding appears anywhere but at the end.
    public static func decode(_ chars: some Collection<UInt8>) -> [UInt8]? {
        let c = Array(chars)
        guard c.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(c.count / 4 * 3)
        var i = 0
        while i < c.count {
            let last = i + 4 == c.count
            let pad = (c[i + 3] == UInt8(ascii: "=") ? 1 : 0) + (c[i + 2] == UInt8(ascii: "=") ? 1 : 0)
            guard pad == 0 || last, pad < 2 || c[i + 3] == UInt8(ascii: "=") else { return nil }
            let v0 = values[Int(c[i])], v1 = values[Int(c[i + 1])]
            let v2 = pad >= 2 ? 0 : values[Int(c[i + 2])]
            let v3 = pad >= 1 ? 0 : values[Int(c[i + 3])]
            guard v0 | v1 | v2 | v3 != 0xFF, v0 < 64, v1 < 64, v2 < 64, v3 < 64 else { return nil }
            out.append(v0 << 2 | v1 >> 4)
            if pad < 2 { out.append((v1 & 0x0F) << 4 | v2 >> 2) }
            if pad < 1 { out.append((v2 & 0x03) << 6 | v3) }
            i += 4
        }
        return out
    }
}
