/// The wait-then-transfer loops shared by every link: poll with the time left, transfer what the
/// driver has or takes, repeat until done or the deadline passes. One implementation for the
/// termios path, the pseudo-terminal master and libserialport, so timeouts, hangups and
/// end-of-file are handled the same way everywhere.
///
/// The OS primitives come in as closures (`Primitives`): `SystemCalls.read`/`write`/`poll` for a
/// plain descriptor, `sp_nonblocking_read`/`_write` plus `poll` on `sp_get_port_handle`'s
/// descriptor for libserialport, and scripted fakes in tests.
struct DescriptorIO {
    /// The three calls the loops need.
    struct Primitives {
        /// Reads at most `max` bytes without blocking; an empty array means nothing was
        /// returned (EAGAIN with libserialport, or end of file).
        var read: (_ max: Int) -> Result<[UInt8], Errno>
        /// Writes `bytes[offset...]` without blocking; returns how many were taken (0 is fine).
        var write: (_ bytes: [UInt8], _ offset: Int) -> Result<Int, Errno>
        /// Waits up to `milliseconds` for readability (or writability with `forWriting`).
        var poll: (_ forWriting: Bool, _ milliseconds: Int) -> Result<SystemCalls.PollEvents, Errno>

        /// `read(2)`, `write(2)` and `poll(2)` on `fd`.
        static func descriptor(_ fd: Int32) -> Primitives {
            Primitives(
                read: { SystemCalls.read(fd, max: $0) },
                write: { SystemCalls.write(fd, $0, from: $1) },
                poll: { SystemCalls.poll(fd, forWriting: $0, milliseconds: $1) })
        }
    }

    let path: String
    /// What a hangup means for this link: `vanished` for a device, `peerClosed` for a pty master.
    let hangup: SerialError
    let primitives: Primitives
    /// Monotonic milliseconds.
    let now: () -> Int64

    init(path: String, hangup: SerialError, primitives: Primitives, now: @escaping () -> Int64 = SystemCalls.monotonicMilliseconds) {
        self.path = path
        self.hangup = hangup
        self.primitives = primitives
        self.now = now
    }

    /// Returns 1…`max` bytes as soon as any are there, waiting at most `milliseconds`.
    ///
    /// - Throws: `.timeout` when nothing arrived in time (at once for 0 ms); `hangup` when poll
    ///   reports POLLHUP/POLLERR with nothing to read, or a read fails with EIO/ENXIO; other
    ///   read errors mapped by `SerialError.mapping`.
    func read(max: Int, timeout milliseconds: Int) throws(SerialError) -> [UInt8] {
        let deadline = Deadline(milliseconds: milliseconds, from: now())
        while true {
            let events: SystemCalls.PollEvents
            switch primitives.poll(false, deadline.remaining(at: now())) {
            case .success(let e): events = e
            case .failure(let e): throw SerialError.mapping(e, during: .read, path: path, hangup: hangup)
            }
            if events.none { throw .timeout(milliseconds: milliseconds) }
            if events.readable {
                switch primitives.read(Swift.max(1, max)) {
                case .success(let bytes) where !bytes.isEmpty: return bytes
                case .success:
                    // Readable yet empty: end of file if the line hung up, otherwise someone
                    // else drained it (or a tty with VMIN = 0 raced us); look again.
                    if events.hangup || events.error { throw hangup }
                case .failure(.wouldBlock): break
                case .failure(let e): throw SerialError.mapping(e, during: .read, path: path, hangup: hangup)
                }
            } else if events.hangup || events.error {
                throw hangup
            }
            if deadline.remaining(at: now()) == 0 { throw .timeout(milliseconds: milliseconds) }
        }
    }

    /// Hands all of `bytes` to the driver, waiting for room at most `milliseconds` in total.
    ///
    /// - Throws: `.writeTimeout` with the count sent so far; `hangup` on EIO/ENXIO/EPIPE or a
    ///   hangup while waiting for room.
    func write(_ bytes: [UInt8], timeout milliseconds: Int) throws(SerialError) {
        let deadline = Deadline(milliseconds: milliseconds, from: now())
        var sent = 0
        while sent < bytes.count {
            switch primitives.write(bytes, sent) {
            case .success(let n) where n > 0:
                sent += n
                continue
            case .success, .failure(.wouldBlock): break
            case .failure(let e): throw SerialError.mapping(e, during: .write, path: path, hangup: hangup)
            }
            let left = deadline.remaining(at: now())
            let timedOut = SerialError.writeTimeout(path: path, milliseconds: milliseconds, sent: sent, total: bytes.count)
            if left == 0 { throw timedOut }
            switch primitives.poll(true, left) {
            case .success(let events):
                if events.none { throw timedOut }
                if !events.writable && (events.hangup || events.error) { throw hangup }
            case .failure(let e): throw SerialError.mapping(e, during: .write, path: path, hangup: hangup)
            }
        }
    }
}
