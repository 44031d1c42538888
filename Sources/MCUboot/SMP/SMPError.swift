/// Why bytes are not an SMP packet.
public enum SMPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer than the 8 header octets.
    case shortHeader(count: Int)
    /// The header's data length disagrees with the octets that follow it.
    case lengthMismatch(header: Int, actual: Int)

    public var description: String {
        switch self {
        case .shortHeader(let n): return "SMP packet of \(n) bytes is shorter than its 8-byte header"
        case let .lengthMismatch(h, a): return "SMP header says \(h) payload bytes, \(a) follow"
        }
    }
}
