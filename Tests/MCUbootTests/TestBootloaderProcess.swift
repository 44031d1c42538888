import Foundation
import Glibc
@testable import MCUboot
import SerialTransport
import TestSupport

/// The built `mcuboot-test-bootloader`, run as a subprocess on a pty for one test: started with
/// a deadline for its "ready" line, stopped (SIGTERM, then SIGKILL) before the test ends.
final class TestBootloaderProcess {
    let process = Process()
    let link: String
    /// Where the link lives; removed with this value.
    let directory: TemporaryDirectory
    private let stdout = Pipe()
    private let stdin = Pipe()
    private let exited = DispatchSemaphore(value: 0)
    private var buffered: [UInt8] = []

    /// The products directory holds the test bundle and the executables.
    static var executable: URL {
        var dir = Bundle.main.bundleURL
        while dir.pathComponents.count > 1, !FileManager.default.fileExists(atPath: dir.appendingPathComponent("mcuboot-test-bootloader").path) {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("mcuboot-test-bootloader")
    }

    init(arguments: [String] = [], timeoutMilliseconds: Int = 10_000) throws {
        directory = try TemporaryDirectory("mcuboot")
        link = directory.file("bootloader")
        process.executableURL = Self.executable
        process.arguments = ["--link", link] + arguments
        process.standardOutput = stdout
        process.standardInput = stdin
        process.standardError = FileHandle.standardError
        let done = exited
        process.terminationHandler = { _ in done.signal() }
        try BackgroundProcess.launch(process)
        guard let line = readLine(timeoutMilliseconds: timeoutMilliseconds), line.hasPrefix("ready ") else {
            stop()
            throw SerialError.system(operation: "start mcuboot-test-bootloader", detail: "no ready line")
        }
    }

    /// One line of the child's stdout, or nil when none came in time.
    func readLine(timeoutMilliseconds: Int) -> String? {
        let fd = stdout.fileHandleForReading.fileDescriptor
        let deadline = Self.milliseconds() + UInt64(timeoutMilliseconds)
        while true {
            if let nl = buffered.firstIndex(of: 0x0A) {
                let line = String(decoding: buffered[..<nl], as: UTF8.self)
                buffered.removeFirst(nl + 1)
                return line
            }
            let now = Self.milliseconds()
            guard now < deadline else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(deadline - now)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1024)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffered += chunk[0..<n]
        }
    }

    /// Stops the process (SIGTERM; SIGKILL if it lingers) and returns its last stdout line.
    @discardableResult
    func stop(timeoutMilliseconds: Int = 5_000) -> String? {
        guard process.isRunning else { return readLine(timeoutMilliseconds: 100) }
        process.terminate()
        let summary = readLine(timeoutMilliseconds: timeoutMilliseconds)
        if exited.wait(timeout: .now() + .milliseconds(timeoutMilliseconds)) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
        }
        return summary
    }

    deinit {
        if process.isRunning { stop() }
    }

    static func milliseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1000 + UInt64(t.tv_nsec) / 1_000_000
    }

    /// Opens the pty replica behind `link` raw (SerialTransport's termios path), with stale
    /// input drained.
    func openLink() throws -> SerialByteLink<TerminalDevice> {
        let link = SerialByteLink(try TerminalDevice(path: self.link, configuration: SerialConfiguration(baudRate: 0, flowControl: .none)))  // 0: a pty keeps its speed
        while !(try link.read(max: 4096, timeoutMilliseconds: 0)).isEmpty {}
        return link
    }
}
