/// Why a serial port or pseudo-terminal could not be used, in words a user can act on.
public enum SerialError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No device at the path.
    case notFound(path: String)
    /// Another program holds the port.
    case busy(path: String)
    /// The user may not open the device.
    case permissionDenied(path: String)
    /// The device went away while in use (unplugged, board reset).
    case vanished(path: String)
    /// A setting the device refused (for example an unsupported baud rate).
    case unsupportedSetting(path: String, detail: String)
    /// No bytes arrived within the timeout.
    case timeout(milliseconds: Int)
    /// Any other failure of the operating system or libserialport.
    case system(operation: String, detail: String)

    public var description: String {
        switch self {
        case .notFound(let p): return "\(p): no such serial port (is the board plugged in? try 'reflector-emu ports')"
        case .busy(let p): return "\(p): the port is busy (close the other program using it, such as a terminal or a running serve)"
        case .permissionDenied(let p): return "\(p): permission denied (add yourself to the dialout group, or run as root)"
        case .vanished(let p): return "\(p): the port went away (unplugged or reset?)"
        case let .unsupportedSetting(p, d): return "\(p): \(d)"
        case .timeout(let ms): return "no answer within \(ms) ms"
        case let .system(op, d): return "\(op) failed: \(d)"
        }
    }
}
