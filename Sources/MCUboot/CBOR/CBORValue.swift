/// One CBOR data item (RFC 8949), restricted to what the SMP protocol carries: unsigned and
/// negative integers, byte and text strings, arrays, maps with text keys, booleans and null.
/// Floats, tags and other simple values are refused by the decoder with `CBORError.unsupported`.
///
/// Maps keep their entries in order, so an encoding is deterministic and tests can compare bytes.
public enum CBORValue: Equatable, Sendable {
    /// Major type 0: 0 ... 2⁶⁴−1.
    case unsigned(UInt64)
    /// Major type 1: the integer −1 − n.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3 (UTF-8).
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, text keys only (SMP never uses others).
    case map([CBORMapEntry])
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null

    /// An integer as the shortest CBOR integer item.
    public static func int(_ v: Int) -> CBORValue {
        v >= 0 ? .unsigned(UInt64(v)) : .negative(UInt64(-(v + 1)))
    }

    /// A map from key–value pairs, in the given order.
    public static func map(_ pairs: KeyValuePairs<String, CBORValue>) -> CBORValue {
        .map(pairs.map { CBORMapEntry(key: $0.key, value: $0.value) })
    }

    /// The value of the first entry with this key, when this is a map.
    public subscript(key: String) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The integer value, when it is an integer that fits in `Int`.
    public var intValue: Int? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): return n <= UInt64(Int.max) ? -Int(n) - 1 : nil
        default: return nil
        }
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    public var textValue: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [CBORValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

/// One key–value pair of a CBOR map.
public struct CBORMapEntry: Equatable, Sendable {
    public var key: String
    public var value: CBORValue

    public init(key: String, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
