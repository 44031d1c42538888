/// A byte channel to a board: a real serial port, a terminal opened with termios, or the master
/// side of a pseudo-terminal. Everything above it (H4 framing, MCUboot's console framing) is
/// written against this protocol, so it runs unchanged over a USB cable and over a pty.
///
/// Every call that waits takes a timeout in milliseconds and never waits longer (0: don't wait
/// at all); there is deliberately no "wait forever", so no caller and no test can hang on a
/// silent line. Links are classes because they own a file descriptor: `close()` releases it
/// (and `deinit` does too, as a safety net). A link is not thread-safe: use it from one thread
/// or actor at a time.
public protocol SerialLink: AnyObject {
    /// The path the link was opened with (for messages).
    var path: String { get }

    /// Hands all of `bytes` to the driver within `milliseconds`, or throws
    /// (`.writeTimeout`, `.vanished`, `.peerClosed`, `.closed`).
    func write(_ bytes: [UInt8], timeout milliseconds: Int) throws(SerialError)

    /// Returns between 1 and `max` bytes as soon as any have arrived, waiting at most
    /// `milliseconds` for the first; throws `.timeout` if none came, `.vanished` or
    /// `.peerClosed` if the other end is gone, `.closed` after `close()`.
    func read(max: Int, timeout milliseconds: Int) throws(SerialError) -> [UInt8]

    /// Releases the device. Idempotent; later reads and writes throw `.closed`.
    func close()

    /// The descriptor `poll(2)` reports readable when `read` has bytes to return, so one thread
    /// can wait on several links at once (`HCIChannel.waitForAny`); nil once closed.
    var readinessDescriptor: Int32? { get }
}

extension SerialLink {
    /// `write(_:timeout:)` with a 2-second timeout: generous for the 1028-octet maximum H4
    /// frame even at 9600 baud (≈ 1.1 s), short enough that a board holding CTS low is noticed.
    public func write(_ bytes: [UInt8]) throws(SerialError) {
        try write(bytes, timeout: SerialConfiguration.defaultWriteTimeoutMilliseconds)
    }

    /// Reads until exactly `count` bytes have arrived or `milliseconds` have passed in total.
    /// For tests and simple request/response exchanges; stream parsers should use `read`.
    public func read(exactly count: Int, timeout milliseconds: Int) throws(SerialError) -> [UInt8] {
        let deadline = Deadline(milliseconds: milliseconds, from: SystemCalls.monotonicMilliseconds())
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            let left = deadline.remaining(at: SystemCalls.monotonicMilliseconds())
            do {
                out += try read(max: count - out.count, timeout: left)
            } catch .timeout {
                throw .timeout(milliseconds: milliseconds)
            }
        }
        return out
    }
}
