/// Why bytes from outside (an HCI packet, an LL PDU, a RAS segment) could not be decoded.
///
/// Decoders return this as a typed error and never trap: every length is checked before it is
/// read, and every enumerated value is checked against the values the spec allows.
public enum DecodeError: Error, Equatable, Sendable {
    /// The input ended `needed` octets short while reading `field`.
    case truncated(field: StaticString, needed: Int)
    /// `extra` octets were left after the last field of a fixed-size layout.
    case trailingBytes(extra: Int)
    /// `field` held `value`, which the specification does not allow there.
    case invalidValue(field: StaticString, value: Int)
    /// The packet's opcode or event code is not the one this decoder handles.
    case unexpectedCode(expected: Int, found: Int)

    public static func == (a: DecodeError, b: DecodeError) -> Bool {
        switch (a, b) {
        case let (.truncated(f1, n1), .truncated(f2, n2)): return f1.description == f2.description && n1 == n2
        case let (.trailingBytes(e1), .trailingBytes(e2)): return e1 == e2
        case let (.invalidValue(f1, v1), .invalidValue(f2, v2)): return f1.description == f2.description && v1 == v2
        case let (.unexpectedCode(e1, f1), .unexpectedCode(e2, f2)): return e1 == e2 && f1 == f2
        default: return false
        }
    }
}
