/// A serial port opened by path: a board's USB CDC ACM port, a USB-UART adapter, a native UART,
/// or (through the fallback) a pseudo-terminal or a symbolic link to one, so users can point the
/// tool at either a real board or a virtual one.
///
/// **Opening.** `stat(2)` first, so a wrong path is `.notFound` and a regular file is
/// `.notATerminal`, with the path in the message. Then libserialport: `sp_get_port_by_name`,
/// `sp_open(SP_MODE_READ_WRITE)` (exclusive: `flock` + TIOCEXCL), `sp_set_baudrate`,
/// `sp_set_bits`/`_parity`/`_stopbits` (8N1), `sp_set_flowcontrol`. libserialport cannot open a
/// pty (no sysfs node, so `sp_get_port_by_name` fails; past that, TIOCMGET fails in `sp_open`),
/// so when it refuses a device for any reason other than "busy", "permission denied" or "not
/// found", the port is opened again as a `TerminalDevice` (open(2) + termios raw mode).
///
/// **Reading and writing** (libserialport backend): `poll(2)` on `sp_get_port_handle`'s
/// descriptor with the time left, then `sp_nonblocking_read`/`_write`; the same loops as the
/// termios path (`DescriptorIO`), so a read returns as soon as bytes are there and never waits
/// past its timeout. An unplugged USB port shows up as POLLHUP/POLLERR or EIO/ENXIO and is
/// reported as `.vanished`.
public final class SerialPort: SerialLink {
    /// Which code path drives the port.
    public enum Backend: Sendable, Equatable {
        /// libserialport (real serial devices).
        case libserialport
        /// open(2) + termios (`TerminalDevice`): ptys and whatever libserialport refused.
        case termios
    }

    public let path: String
    public let configuration: SerialConfiguration
    public let backend: Backend
    /// Why libserialport was not used, when `backend` is `.termios` (for a verbose log line).
    public let fallbackReason: String?

    private var port: OpaquePointer?
    private var descriptor: Int32 = -1
    private var terminal: TerminalDevice?

    /// Opens and configures the port at `path`.
    ///
    /// - Throws: `.notFound`, `.permissionDenied`, `.busy`, `.notATerminal`,
    ///   `.unsupportedSetting` (a baud rate or flow control the device refused), `.system`.
    public init(path: String, configuration: SerialConfiguration = SerialConfiguration()) throws(SerialError) {
        self.path = path
        self.configuration = configuration
        switch SystemCalls.fileKind(path) {
        case .success(.characterDevice): break
        case .success(let kind): throw SerialError.notATerminal(path: path, found: kind)
        case .failure(let e): throw SerialError.mapping(e, during: .open, path: path)
        }
        let refusal: String
        switch Self.openWithLibSerialPort(path: path, configuration: configuration) {
        case .success(let opened):
            port = opened.port
            descriptor = opened.descriptor
            backend = .libserialport
            fallbackReason = nil
            return
        case .failure(.fatal(let error)):
            throw error
        case .failure(.refused(let reason)):
            refusal = reason
        }
        terminal = try TerminalDevice(path: path, configuration: configuration)
        backend = .termios
        fallbackReason = refusal
    }

    public var readinessDescriptor: Int32? { descriptor >= 0 ? descriptor : nil }

    deinit { close() }

    /// Why libserialport could not be used: a definite answer for the user (`fatal`), or a
    /// refusal that the termios path may get past (`refused`).
    enum LibSerialPortOutcome: Error {
        case fatal(SerialError)
        case refused(String)
    }

    /// Whether a libserialport failure while opening is final. Busy, permission denied and not
    /// found would be the same through termios, so they are reported as they are; anything else
    /// (SP_ERR_ARG for a device without sysfs node, ENOTTY/EINVAL from TIOCMGET on a pty, …)
    /// is a refusal to try termios for. Pure, for the tests.
    static func classify(_ failure: LibSerialPortFailure, path: String) -> LibSerialPortOutcome {
        let error = SerialError.mapping(failure, during: .open, path: path)
        switch error {
        case .busy, .permissionDenied, .notFound: return .fatal(error)
        default: return .refused(failure.message)
        }
    }

    private static func openWithLibSerialPort(
        path: String, configuration: SerialConfiguration
    ) -> Result<(port: OpaquePointer, descriptor: Int32), LibSerialPortOutcome> {
        let port: OpaquePointer
        switch LibSerialPortCalls.portByName(path) {
        case .success(let p): port = p
        case .failure(let f): return .failure(classify(f, path: path))
        }
        if case .failure(let f) = LibSerialPortCalls.open(port) {
            LibSerialPortCalls.freePort(port)
            return .failure(classify(f, path: path))
        }
        func configure() -> Result<Int32, LibSerialPortOutcome> {
            if configuration.baudRate > 0, case .failure(let f) = LibSerialPortCalls.setBaudRate(port, configuration.baudRate) {
                let error = SerialError.mapping(f, during: .configure, path: path)
                if case .unsupportedSetting = error {
                    return .failure(.fatal(.unsupportedSetting(path: path, detail: "the device refused \(configuration.baudRate) baud")))
                }
                return .failure(.fatal(error))
            }
            if case .failure(let f) = LibSerialPortCalls.set8N1(port) {
                return .failure(.fatal(SerialError.mapping(f, during: .configure, path: path)))
            }
            if case .failure(let f) = LibSerialPortCalls.setFlowControl(port, configuration.flowControl) {
                return .failure(.fatal(SerialError.mapping(f, during: .configure, path: path)))
            }
            switch LibSerialPortCalls.handle(port) {
            case .success(let fd): return .success(fd)
            case .failure(let f): return .failure(.fatal(SerialError.mapping(f, during: .open, path: path)))
            }
        }
        switch configure() {
        case .success(let fd): return .success((port, fd))
        case .failure(let outcome):
            LibSerialPortCalls.close(port)
            LibSerialPortCalls.freePort(port)
            return .failure(outcome)
        }
    }

    /// The loops over libserialport's nonblocking calls and `poll(2)` on its descriptor.
    private func libSerialPortIO(_ port: OpaquePointer) -> DescriptorIO {
        let fd = descriptor
        let errnoOf: (LibSerialPortFailure) -> Errno = { $0.errno ?? .invalidArgument }
        return DescriptorIO(
            path: path, hangup: .vanished(path: path),
            primitives: DescriptorIO.Primitives(
                read: { LibSerialPortCalls.nonblockingRead(port, max: $0).mapError(errnoOf) },
                write: { LibSerialPortCalls.nonblockingWrite(port, $0, from: $1).mapError(errnoOf) },
                poll: { SystemCalls.poll(fd, forWriting: $0, milliseconds: $1) }))
    }

    public func write(_ bytes: [UInt8], timeout milliseconds: Int) throws(SerialError) {
        if let terminal { return try terminal.write(bytes, timeout: milliseconds) }
        guard let port else { throw .closed(path: path) }
        try libSerialPortIO(port).write(bytes, timeout: milliseconds)
    }

    public func read(max: Int, timeout milliseconds: Int) throws(SerialError) -> [UInt8] {
        if let terminal { return try terminal.read(max: max, timeout: milliseconds) }
        guard let port else { throw .closed(path: path) }
        return try libSerialPortIO(port).read(max: max, timeout: milliseconds)
    }

    /// `sp_close` + `sp_free_port`, or closes the terminal.
    public func close() {
        terminal?.close()
        if let port {
            LibSerialPortCalls.close(port)
            LibSerialPortCalls.freePort(port)
        }
        port = nil
        descriptor = -1
    }
}
