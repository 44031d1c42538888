/// Why a `ByteLink` could not move bytes.
public enum ByteLinkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The other side hung up (device unplugged, pty closed).
    case closed
    /// Writing did not finish within the allowed time (flow control stuck).
    case writeTimeout(milliseconds: Int)
    /// An operating-system call failed; `errno` as text.
    case system(operation: String, detail: String)

    public var description: String {
        switch self {
        case .closed: return "the serial link closed (unplugged or reset?)"
        case .writeTimeout(let ms): return "could not write to the serial link within \(ms) ms"
        case let .system(op, d): return "\(op) failed: \(d)"
        }
    }
}
