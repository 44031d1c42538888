import Foundation

/// Runs the built `reflector-emu` executable (or another program, such as python3 with Bumble) as a user would, with a
/// deadline on everything: its output is read with poll() until the deadline, and a process
/// still running then is stopped (SIGTERM, then SIGKILL), so a test that starts a process also
/// stops it and no read can hang a test. Children start through `BackgroundProcess.launch`, with
/// no signal blocked.
public enum ToolProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// The process had to be stopped at the deadline.
        public var timedOut = false
    }

    /// The products directory holding both the test bundle and the executables.
    public static var executable: URL {
        var dir = Bundle.main.bundleURL
        while dir.pathComponents.count > 1, !FileManager.default.fileExists(atPath: dir.appendingPathComponent("reflector-emu").path) {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("reflector-emu")
    }

    public static func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> Result {
        try run(executable, arguments, timeout: timeout)
    }

    /// Runs `program` with `arguments`, stdin closed, reading stdout and stderr until both end
    /// or `timeout` passes.
    public static func run(_ program: URL, _ arguments: [String], timeout: TimeInterval) throws -> Result {
        let p = Process()
        p.executableURL = program
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        try BackgroundProcess.launch(p)
        // The parent's copies of the write ends are closed by Process; read both to their end.
        let deadline = Date().addingTimeInterval(timeout)
        var data: [Int32: [UInt8]] = [:]
        var open = [out.fileHandleForReading.fileDescriptor, err.fileHandleForReading.fileDescriptor]
        var timedOut = false
        while !open.isEmpty {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                timedOut = true
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), Int32(min(left, 1) * 1000)) >= 0 || errno == EINTR else { break }
            for f in fds where f.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let n = read(f.fd, &buffer, buffer.count)
                if n > 0 {
                    data[f.fd, default: []] += buffer[0..<n]
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    open.removeAll { $0 == f.fd }
                }
            }
        }
        stop(p, exited, grace: timedOut ? 0 : max(1, deadline.timeIntervalSinceNow))
        return Result(status: p.terminationStatus,
                      stdout: String(decoding: data[out.fileHandleForReading.fileDescriptor] ?? [], as: UTF8.self),
                      stderr: String(decoding: data[err.fileHandleForReading.fileDescriptor] ?? [], as: UTF8.self),
                      timedOut: timedOut)
    }

    /// Waits `grace` seconds for `p` (started with `BackgroundProcess.launch`, so it can take
    /// SIGTERM) to exit, then SIGTERM, then SIGKILL.
    public static func stop(_ p: Process, _ exited: DispatchSemaphore, grace: TimeInterval) {
        if exited.wait(timeout: .now() + grace) == .success { return }
        p.terminate()
        if exited.wait(timeout: .now() + 5) == .success { return }
        kill(p.processIdentifier, SIGKILL)
        exited.wait()
    }
}
