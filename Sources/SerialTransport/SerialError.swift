/// Why a serial port or pseudo-terminal could not be used, in words a user can act on.
///
/// Timeouts, a far end that closed, and a device that vanished are separate cases on purpose: a
/// host retries after a timeout, a virtual board waits for its next client after `peerClosed`,
/// and a tool reports `vanished` and stops.
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
    /// The path names something that is not a terminal device: `kind` says what it is ("a
    /// regular file", "a directory", "a character device that is not a terminal").
    case notATerminal(path: String, kind: String)
    /// The program at the other end of a pseudo-terminal closed it (the master sees POLLHUP or
    /// EIO once no process has the replica open). Not fatal: a new client may open it again.
    case peerClosed(path: String)
    /// The driver did not take all bytes within the write timeout (typically: RTS/CTS flow
    /// control is on and the board never raises CTS, or nobody drains a pseudo-terminal).
    case writeTimeout(path: String, milliseconds: Int, sent: Int, total: Int)
    /// The symbolic link for a pseudo-terminal would replace something that is not a symbolic
    /// link (a regular file, a directory); it is left alone.
    case linkPathOccupied(path: String, kind: String)
    /// The link was used after `close()`.
    case closed(path: String)

    public var description: String {
        switch self {
        case .notFound(let p): return "\(p): no such serial port (is the board plugged in? try 'reflector-emu ports')"
        case .busy(let p): return "\(p): the port is busy (close the other program using it, such as a terminal or a running serve)"
        case .permissionDenied(let p): return "\(p): permission denied (add yourself to the dialout group, or run as root)"
        case .vanished(let p): return "\(p): the port went away (unplugged or reset?)"
        case let .unsupportedSetting(p, d): return "\(p): \(d)"
        case .timeout(let ms): return "no answer within \(ms) ms"
        case let .system(op, d): return "\(op) failed: \(d)"
        case let .notATerminal(p, kind): return "\(p): not a serial port or terminal (it is \(kind))"
        case .peerClosed(let p): return "\(p): the program on the other end closed the pseudo-terminal"
        case let .writeTimeout(p, ms, sent, total):
            return "\(p): sent only \(sent) of \(total) bytes within \(ms) ms (flow control: does the board raise CTS? is anyone reading?)"
        case let .linkPathOccupied(p, kind): return "\(p): exists and is \(kind), not a symbolic link; refusing to replace it (choose another link path)"
        case .closed(let p): return "\(p): used after close"
        }
    }
}
