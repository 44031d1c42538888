/// Why bytes are not a CBOR item this decoder accepts. Offsets count from the start of the input.
public enum CBORError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended inside an item.
    case truncated(offset: Int)
    /// A major type / additional-information combination outside the SMP subset (floats, tags,
    /// other simple values, reserved values 28–30), or a misplaced break.
    case unsupported(initialByte: UInt8, offset: Int)
    /// A map key that is not a text string.
    case nonTextKey(offset: Int)
    /// A text string that is not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// Nesting deeper than the decoder allows.
    case tooDeep(offset: Int)
    /// Bytes left over after the one item.
    case trailingBytes(offset: Int)

    public var description: String {
        switch self {
        case .truncated(let o): return "CBOR truncated at byte \(o)"
        case let .unsupported(b, o): return "unsupported CBOR initial byte 0x\(String(b, radix: 16)) at byte \(o)"
        case .nonTextKey(let o): return "CBOR map key at byte \(o) is not a text string"
        case .invalidUTF8(let o): return "CBOR text string at byte \(o) is not UTF-8"
        case .tooDeep(let o): return "CBOR nested too deeply at byte \(o)"
        case .trailingBytes(let o): return "bytes after the CBOR item at byte \(o)"
        }
    }
}
