import WireFormat

/// Encodes `CBORValue`s with definite lengths and the shortest argument encoding (RFC 8949
/// §4.2.1 "preferred serialization"), as cbor2 (the Python `smp` package) and mcumgr do.
public enum CBOREncoder {
    public static func encode(_ value: CBORValue, indefiniteLengthMaps: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out, indefiniteLengthMaps: indefiniteLengthMaps)
        return out
    }

    /// Appends the encoding of `value`. With `indefiniteLengthMaps`, maps and arrays are written
    /// as `BF … FF` / `9F … FF`, the way MCUboot's zcbor encoder writes its responses unless it
    /// is built with ZCBOR_CANONICAL.
    public static func append(_ value: CBORValue, to out: inout [UInt8], indefiniteLengthMaps: Bool = false) {
        switch value {
        case .unsigned(let n): appendHead(major: 0, argument: n, to: &out)
        case .negative(let n): appendHead(major: 1, argument: n, to: &out)
        case .bytes(let b):
            appendHead(major: 2, argument: UInt64(b.count), to: &out)
            out += b
        case .text(let s):
            let u = Array(s.utf8)
            appendHead(major: 3, argument: UInt64(u.count), to: &out)
            out += u
        case .array(let items):
            if indefiniteLengthMaps { out.append(0x9F) } else { appendHead(major: 4, argument: UInt64(items.count), to: &out) }
            for item in items { append(item, to: &out, indefiniteLengthMaps: indefiniteLengthMaps) }
            if indefiniteLengthMaps { out.append(0xFF) }
        case .map(let entries):
            if indefiniteLengthMaps { out.append(0xBF) } else { appendHead(major: 5, argument: UInt64(entries.count), to: &out) }
            for e in entries {
                append(.text(e.key), to: &out)
                append(e.value, to: &out, indefiniteLengthMaps: indefiniteLengthMaps)
            }
            if indefiniteLengthMaps { out.append(0xFF) }
        case .bool(let b): out.append(b ? 0xF5 : 0xF4)
        case .null: out.append(0xF6)
        }
    }

    /// The number of octets the head of an item with this argument takes (1, 2, 3, 5 or 9).
    public static func headSize(argument: UInt64) -> Int {
        switch argument {
        case ..<24: return 1
        case ...0xFF: return 2
        case ...0xFFFF: return 3
        case ...0xFFFF_FFFF: return 5
        default: return 9
        }
    }

    static func appendHead(major: UInt8, argument n: UInt64, to out: inout [UInt8]) {
        let m = major << 5
        let size = headSize(argument: n)
        ByteWriter.append(to: &out) { w in
            // The argument in 0, 1, 2, 4 or 8 octets after the initial byte, most significant first.
            switch size {
            case 1: w.u8(m | UInt8(n))
            case 2: w.u8(m | 24)
            case 3: w.u8(m | 25)
            case 5: w.u8(m | 26)
            default: w.u8(m | 27)
            }
            if size > 1 { w.uint(n, size - 1, endianness: .big) }
        }
    }
}
