/// Why `DTFrame.decode` refused a frame: the field and the octet offset (from the first octet of
/// the frame control) where it went wrong.
public enum DTFrameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The frame ends (or the IE that holds the field ends) before the field does.
    case truncated(field: DTField, offset: Int)
    /// The field holds a value this anchor does not accept.
    case invalidValue(field: DTField, offset: Int, value: UInt32)
    /// A required field is absent (the FiRa header IE with the session ID).
    case missing(field: DTField, offset: Int)
    /// The FCS over octets 0..<offset is not what the frame carries at offset.
    case checksumMismatch(offset: Int, computed: UInt16, received: UInt16)
    /// Octets left over after the DTM body, inside the payload IE.
    case trailingOctets(offset: Int, count: Int)

    public var description: String {
        switch self {
        case let .truncated(field, offset): "\(field.name) truncated at octet \(offset)"
        case let .invalidValue(field, offset, value): "\(field.name) at octet \(offset) has invalid value \(value)"
        case let .missing(field, offset): "\(field.name) missing (expected by octet \(offset))"
        case let .checksumMismatch(offset, computed, received):
            "FCS at octet \(offset) is \(received), the frame's CRC is \(computed)"
        case let .trailingOctets(offset, count): "\(count) unexpected octets at octet \(offset)"
        }
    }
}
