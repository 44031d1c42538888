import Foundation
import TestSupport

/// A `reflector-emu serve` process for a test (a `BackgroundProcess`, so it can be signalled):
/// ready once it printed `ready <path>`, and always stopped the way a user stops it, with
/// SIGTERM (then SIGKILL if it lingers), so no test leaves a board running or hangs on one, and
/// serve's graceful stop is what every board test ends with.
final class ServedBoard {
    let process: BackgroundProcess
    /// The boards' lines (one, or two with `boards: 2`).
    let links: [String]
    var link: String { links[0] }
    /// Where the board's link lives; removed with the board.
    private let directory: TemporaryDirectory

    init(_ arguments: [String], link: String? = nil, boards: Int = 1, readyTimeout: TimeInterval = 30) throws {
        let dir = try TemporaryDirectory("board")
        directory = dir
        let links = boards == 1 ? [link ?? dir.file("board")] : (0..<boards).map { dir.file("board-\(["A", "B"][$0])") }
        self.links = links
        process = try BackgroundProcess(ToolProcess.executable, ["serve"] + links.flatMap { ["--pty", $0] } + arguments)
        guard process.line(timeout: readyTimeout, where: { $0.hasPrefix("ready ") }) != nil else {
            let r = process.stop(signal: SIGKILL, grace: 5)
            throw NSError(domain: "ServedBoard", code: 1, userInfo: [NSLocalizedDescriptionKey: "serve did not get ready: \(r.stdout) \(r.stderr)"])
        }
    }

    /// Stops the board with SIGTERM, as a user does; returns its exit status (0: it stopped
    /// gracefully, its links removed).
    @discardableResult
    func stop(timeout: TimeInterval = 10) -> Int32 {
        process.stop(signal: SIGTERM, grace: timeout, closingInput: false).status
    }

    deinit { stop() }
}
