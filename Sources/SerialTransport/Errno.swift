import Glibc

/// An `errno` value from a failed system call, kept as a value so the mapping to `SerialError`
/// is a pure function the tests can drive with any code (swift-system's `Errno`, in small).
struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    var rawValue: Int32

    init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` right now. Read it straight after the failing call.
    static var current: Errno { Errno(rawValue: errno) }

    static let noSuchFile = Errno(rawValue: ENOENT)
    static let notADirectory = Errno(rawValue: ENOTDIR)
    static let interrupted = Errno(rawValue: EINTR)
    static let ioError = Errno(rawValue: EIO)
    static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    static let noSuchDevice = Errno(rawValue: ENODEV)
    static let permissionDenied = Errno(rawValue: EACCES)
    static let notPermitted = Errno(rawValue: EPERM)
    static let busy = Errno(rawValue: EBUSY)
    /// EAGAIN, which is also EWOULDBLOCK on Linux: "try again" for a nonblocking fd, and what
    /// `flock(LOCK_NB)` answers when another process holds the lock.
    static let wouldBlock = Errno(rawValue: EAGAIN)
    static let notATerminal = Errno(rawValue: ENOTTY)
    static let invalidArgument = Errno(rawValue: EINVAL)
    static let brokenPipe = Errno(rawValue: EPIPE)
    static let notSupported = Errno(rawValue: EOPNOTSUPP)
    static let badFileDescriptor = Errno(rawValue: EBADF)

    /// `strerror(3)` text, for messages.
    var description: String {
        guard let text = strerror(rawValue) else { return "errno \(rawValue)" }
        return String(cString: text)
    }
}
