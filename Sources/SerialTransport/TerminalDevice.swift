/// A terminal opened by path with plain POSIX calls and set up with termios: the fallback for
/// the devices libserialport refuses (pseudo-terminals, which it can't open: no sysfs node, and
/// TIOCMGET fails), and the client side of a virtual board.
///
/// Opening: `open(2)` with `O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC`, `isatty`, an exclusive
/// `flock` (as `sp_open` takes, so two programs don't share a port unknowingly), then
/// `cpty_make_raw`: raw 8N1, the baud rate, RTS/CTS on or off, VMIN = VTIME = 0. Reads and
/// writes are `poll(2)` + nonblocking `read(2)`/`write(2)` with deadlines.
public final class TerminalDevice: SerialLink {
    public let path: String
    public let configuration: SerialConfiguration
    private var link: DescriptorLink

    /// Opens and configures the terminal at `path` (symbolic links are followed).
    ///
    /// - Throws: `.notFound`, `.permissionDenied`, `.busy` (another process holds the lock),
    ///   `.notATerminal` (a regular file, say), `.unsupportedSetting` (a refused baud rate).
    public init(path: String, configuration: SerialConfiguration = SerialConfiguration()) throws(SerialError) {
        self.path = path
        self.configuration = configuration
        let fd: Int32
        switch SystemCalls.openTerminal(path) {
        case .success(let d): fd = d
        case .failure(let e): throw SerialError.mapping(e, during: .open, path: path)
        }
        guard SystemCalls.isTerminal(fd) else {
            SystemCalls.close(fd)
            throw SerialError.notATerminal(path: path, found: try? SystemCalls.fileKind(path).get())
        }
        if case .failure(let e) = SystemCalls.lockExclusive(fd) {
            SystemCalls.close(fd)
            throw SerialError.mapping(e, during: .lock, path: path)
        }
        if case .failure(let e) = SystemCalls.makeRaw(fd, baud: configuration.baudRate, rtsCts: configuration.flowControl == .rtsCts) {
            SystemCalls.close(fd)
            if e == .invalidArgument {
                throw .unsupportedSetting(path: path, detail: "the device refused \(configuration.baudRate) baud")
            }
            throw SerialError.mapping(e, during: .configure, path: path)
        }
        link = DescriptorLink(fd: fd, path: path, hangup: .vanished(path: path))
    }

    public var readinessDescriptor: Int32? { link.readinessDescriptor }

    deinit { close() }

    public func write(_ bytes: [UInt8], timeout milliseconds: Int) throws(SerialError) {
        try link.write(bytes, timeout: milliseconds)
    }

    public func read(max: Int, timeout milliseconds: Int) throws(SerialError) -> [UInt8] {
        try link.read(max: max, timeout: milliseconds)
    }

    public func close() { link.close() }
}
