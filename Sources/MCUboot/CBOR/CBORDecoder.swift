import WireFormat

/// Decodes one CBOR item (RFC 8949) of the SMP subset from bytes, with typed errors for
/// anything else; it never traps on garbage. Definite and indefinite lengths are both accepted:
/// MCUboot's zcbor encoder writes maps with indefinite length (`BF … FF`) unless built with
/// ZCBOR_CANONICAL, while Python's cbor2 writes definite lengths.
public struct CBORDecoder {
    /// Nesting limit for arrays and maps (SMP messages nest two or three levels).
    public static let maximumDepth = 16

    /// The input; its `offset` is the offset errors report.
    private var r: ByteReader
    /// Octets in the whole input: where a truncated item's error points.
    private let count: Int

    private init(_ bytes: [UInt8]) {
        r = ByteReader(bytes)
        count = bytes.count
    }

    private var index: Int { r.offset }

    /// Decodes exactly one item that fills all of `bytes`.
    public static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        var d = CBORDecoder(bytes)
        let v = try d.item(depth: 0)
        guard d.r.isAtEnd else { throw .trailingBytes(offset: d.index) }
        return v
    }

    private enum Head {
        case value(major: UInt8, argument: UInt64)
        case indefinite(major: UInt8)
        case breakCode
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        do { return try r.u8("initial byte") } catch { throw .truncated(offset: count) }
    }

    private mutating func head() throws(CBORError) -> Head {
        let start = index
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        let argument: UInt64
        switch info {
        case 0..<24: argument = UInt64(info)
        case 24...27:
            // 1, 2, 4 or 8 octets, most significant first (RFC 8949 §3).
            do { argument = try r.uint(1 << Int(info - 24), "argument", endianness: .big) } catch { throw .truncated(offset: count) }
        case 31:
            switch major {
            case 2, 3, 4, 5: return .indefinite(major: major)
            case 7: return .breakCode
            default: throw .unsupported(initialByte: initial, offset: start)
            }
        default: throw .unsupported(initialByte: initial, offset: start)
        }
        if major == 7 || major == 6 {
            // Simple values false, true, null only; no floats, no tags.
            if major == 7, info < 24, (20...22).contains(argument) { return .value(major: 7, argument: argument) }
            throw .unsupported(initialByte: initial, offset: start)
        }
        return .value(major: major, argument: argument)
    }

    private mutating func take(_ count: UInt64) throws(CBORError) -> [UInt8] {
        guard count <= UInt64(r.remaining) else { throw .truncated(offset: self.count) }
        do { return Array(try r.octets(Int(count), "string")) } catch { throw .truncated(offset: self.count) }
    }

    private mutating func text(_ count: UInt64, at offset: Int) throws(CBORError) -> String {
        let raw = try take(count)
        guard let s = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8(offset: offset) }
        return s
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        let start = index
        guard depth <= Self.maximumDepth else { throw .tooDeep(offset: start) }
        switch try head() {
        case .breakCode:
            throw .unsupported(initialByte: 0xFF, offset: start)
        case .value(let major, let n):
            switch major {
            case 0: return .unsigned(n)
            case 1: return .negative(n)
            case 2: return .bytes(try take(n))
            case 3: return .text(try text(n, at: start))
            case 4:
                // Each item takes at least one octet: a count beyond the input is truncation.
                guard n <= UInt64(r.remaining) else { throw .truncated(offset: count) }
                var items: [CBORValue] = []
                for _ in 0..<n { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                guard n <= UInt64(r.remaining) / 2 else { throw .truncated(offset: count) }
                var entries: [CBORMapEntry] = []
                for _ in 0..<n { entries.append(try entry(depth: depth + 1)) }
                return .map(entries)
            default:
                return n == 21 ? .bool(true) : n == 20 ? .bool(false) : .null
            }
        case .indefinite(let major):
            switch major {
            case 2, 3:
                var raw: [UInt8] = []
                while true {
                    let chunkStart = index
                    switch try head() {
                    case .breakCode:
                        if major == 2 { return .bytes(raw) }
                        guard let s = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8(offset: start) }
                        return .text(s)
                    case .value(let m, let n) where m == major:
                        raw += try take(n)
                    default:
                        throw .unsupported(initialByte: r.bytes[r.bytes.startIndex + chunkStart], offset: chunkStart)
                    }
                }
            case 4:
                var items: [CBORValue] = []
                while try !atBreak() { items.append(try item(depth: depth + 1)) }
                return .array(items)
            default:
                var entries: [CBORMapEntry] = []
                while try !atBreak() { entries.append(try entry(depth: depth + 1)) }
                return .map(entries)
            }
        }
    }

    /// Consumes a break code if one is next.
    private mutating func atBreak() throws(CBORError) -> Bool {
        guard let next = r.unread.first else { throw .truncated(offset: index) }
        if next == 0xFF { _ = try byte(); return true }
        return false
    }

    private mutating func entry(depth: Int) throws(CBORError) -> CBORMapEntry {
        let keyOffset = index
        guard case .text(let key) = try item(depth: depth) else { throw .nonTextKey(offset: keyOffset) }
        return CBORMapEntry(key: key, value: try item(depth: depth))
    }
}
