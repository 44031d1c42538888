import Foundation
import TestSupport

/// A `reflector-emu serve` process for a test: started with a pipe on stdin, ready once it
/// printed `ready <path>`, and always stopped (stdin closed, then SIGTERM, then SIGKILL), so no
/// test leaves a board running or hangs on one.
final class ServedBoard {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    /// The boards' lines (one, or two with `boards: 2`).
    let links: [String]
    var link: String { links[0] }
    /// Where the board's link lives; removed with the board.
    private let directory: TemporaryDirectory
    private let exited = DispatchSemaphore(value: 0)

    init(_ arguments: [String], link: String? = nil, boards: Int = 1, readyTimeout: TimeInterval = 30) throws {
        let dir = try TemporaryDirectory("board")
        directory = dir
        links = boards == 1 ? [link ?? dir.file("board")] : (0..<boards).map { dir.file("board-\(["A", "B"][$0])") }
        process.executableURL = ToolProcess.executable
        process.arguments = ["serve"] + links.flatMap { ["--pty", $0] } + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Wait for the ready line, reading with a deadline.
        let fd = output.fileHandleForReading.fileDescriptor
        var text = ""
        let deadline = Date().addingTimeInterval(readyTimeout)
        while !text.contains("ready ") {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&pfd, 1, left) > 0 else {
                stop()
                throw NSError(domain: "ServedBoard", code: 1, userInfo: [NSLocalizedDescriptionKey: "serve did not get ready: \(text)"])
            }
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else {
                stop()
                throw NSError(domain: "ServedBoard", code: 2, userInfo: [NSLocalizedDescriptionKey: "serve ended: \(text)"])
            }
            text += String(decoding: buffer.prefix(n), as: UTF8.self)
        }
    }

    /// Ends the board the way a user does (end of stdin); returns its exit status.
    @discardableResult
    func stop(timeout: TimeInterval = 10) -> Int32 {
        guard !stopped else { return process.terminationStatus }
        stopped = true
        try? input.fileHandleForWriting.close()
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            if exited.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL); exited.wait() }
        }
        return process.terminationStatus
    }

    private var stopped = false

    deinit { stop() }
}
