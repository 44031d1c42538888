import Foundation

/// A process a test runs beside others (a peer's controllers, the tool serving a board) and
/// talks to while it runs: its stdout and stderr are read as they come by a thread of its own
/// (poll() with a timeout, so it never hangs), a test waits for a line with a deadline instead
/// of sleeping, and it is always stopped: end of stdin, then the signal asked for, then SIGKILL,
/// each with a deadline (also when the test forgets, at deinit).
///
/// Every child a test starts goes through `launch(_:)` (this type, `ToolProcess.run`, the
/// served boards and the test bootloader), so every child can be stopped with SIGTERM and its
/// graceful stop is what the tests see.
public final class BackgroundProcess: @unchecked Sendable {
    public let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let exited = DispatchSemaphore(value: 0)
    private let capture = Capture()
    private var stopped: ToolProcess.Result?

    /// What the reader thread gathered (its own object, so the thread does not keep the process alive).
    private final class Capture: @unchecked Sendable {
        let lock = NSCondition()
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var done = false

        /// Reads both descriptors until both end (the process exited and closed them).
        func drain(_ out: Int32, _ err: Int32) {
            var open = [out, err]
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while !open.isEmpty {
                var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                let ready = poll(&fds, nfds_t(fds.count), 200)
                if ready < 0 && errno != EINTR { break }
                for f in fds where f.revents != 0 {
                    let n = read(f.fd, &buffer, buffer.count)
                    if n > 0 {
                        lock.lock()
                        if f.fd == out { stdout += buffer[0..<n] } else { stderr += buffer[0..<n] }
                        lock.broadcast()
                        lock.unlock()
                    } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                        open.removeAll { $0 == f.fd }
                    }
                }
            }
            lock.lock()
            done = true
            lock.broadcast()
            lock.unlock()
        }
    }

    /// Starts `program` with `arguments`; its stdin is a pipe the test holds until `stop`.
    public init(_ program: URL, _ arguments: [String]) throws {
        process.executableURL = program
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try Self.launch(process)
        let capture = self.capture
        let out = output.fileHandleForReading.fileDescriptor, err = errors.fileHandleForReading.fileDescriptor
        Thread { capture.drain(out, err) }.start()
    }

    /// Runs `process` from a thread of its own whose signal mask is empty, so the child starts
    /// with an empty mask as from a shell: a child inherits the mask of the thread that spawns
    /// it, and the threads `swift test` runs tests on block SIGTERM, SIGINT and most others
    /// (a child started from one never sees SIGTERM, and only SIGKILL stops it).
    public static func launch(_ process: Process) throws {
        final class Outcome: @unchecked Sendable { var error: Error? }
        let outcome = Outcome()
        let launched = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let process = process
        Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            do { try process.run() } catch { outcome.error = error }
            launched.signal()
        }.start()
        launched.wait()
        if let error = outcome.error { throw error }
    }

    /// What it printed on stdout so far.
    public var stdout: String {
        capture.lock.lock()
        defer { capture.lock.unlock() }
        return String(decoding: capture.stdout, as: UTF8.self)
    }

    /// What it printed on stderr so far.
    public var stderr: String {
        capture.lock.lock()
        defer { capture.lock.unlock() }
        return String(decoding: capture.stderr, as: UTF8.self)
    }

    public var isRunning: Bool { process.isRunning }

    /// One of its two output streams.
    public enum Stream: Sendable { case stdout, stderr }

    /// The first complete line of `stream` (stdout unless asked) for which `matches` holds,
    /// waiting for it at most `timeout` seconds; nil when the deadline passes or the stream ends
    /// without one. Wait on the stream a line is printed to: the reader thread takes the two
    /// streams in turn, so a line on one is no sign that a line written before it on the other
    /// has been read.
    public func line(timeout: TimeInterval, on stream: Stream = .stdout, where matches: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        capture.lock.lock()
        defer { capture.lock.unlock() }
        while true {
            let text = String(decoding: stream == .stdout ? capture.stdout : capture.stderr, as: UTF8.self)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            lines.removeLast()  // the part after the last newline is not a line yet
            if let hit = lines.first(where: { matches(String($0)) }) { return String(hit) }
            if capture.done || !capture.lock.wait(until: deadline) { return nil }
        }
    }

    /// Waits at most `timeout` seconds for the process to end by itself.
    public func waitForExit(timeout: TimeInterval) -> Bool {
        guard stopped == nil else { return true }
        if exited.wait(timeout: .now() + timeout) == .success {
            exited.signal()  // leave it signalled for `stop`
            return true
        }
        return false
    }

    /// Stops it: closes its stdin (unless `closingInput` is false, so that only the signal
    /// stops it), sends `signal` (unless it already ended), waits `grace` seconds, then SIGKILL;
    /// returns its status and all it printed (read to the end).
    @discardableResult
    public func stop(signal: Int32? = SIGTERM, grace: TimeInterval = 10, closingInput: Bool = true) -> ToolProcess.Result {
        if let done = stopped { return done }
        if closingInput { try? input.fileHandleForWriting.close() }
        if let signal, process.isRunning { kill(process.processIdentifier, signal) }
        if exited.wait(timeout: .now() + grace) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        // Its pipes end with it (unless a child of its own holds them): read them to the end.
        capture.lock.lock()
        let deadline = Date().addingTimeInterval(5)
        while !capture.done && capture.lock.wait(until: deadline) {}
        try? input.fileHandleForWriting.close()
        let result = ToolProcess.Result(status: process.terminationStatus, stdout: String(decoding: capture.stdout, as: UTF8.self),
                                        stderr: String(decoding: capture.stderr, as: UTF8.self))
        capture.lock.unlock()
        stopped = result
        return result
    }

    deinit { stop(signal: SIGKILL, grace: 5) }
}
