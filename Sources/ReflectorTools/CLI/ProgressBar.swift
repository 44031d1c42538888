import Foundation

/// A one-line progress bar on standard error, drawn only when standard error is a terminal (so
/// pipes, files and CI logs stay clean) and the run is long enough to need one.
public struct ProgressBar {
    public let total: Int
    private let enabled: Bool
    private var drawn = -1

    public init(total: Int, minimumTotal: Int = 50) {
        self.total = total
        enabled = total >= minimumTotal && isatty(STDERR_FILENO) != 0
    }

    public mutating func update(_ done: Int) {
        guard enabled else { return }
        let width = 40
        let filled = min(width, done * width / max(total, 1))
        guard filled != drawn || done == total else { return }
        drawn = filled
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)\(done >= total ? "\n" : "")".utf8))
    }
}

/// A transfer's progress line on stderr (`flash`): bar, bytes and rate; drawn only when stderr is a
/// terminal, so logs and pipes stay clean.
struct RateBar {
    let total: Int
    private let enabled = isatty(STDERR_FILENO) != 0
    private var drawn = false

    init(total: Int) { self.total = total }

    /// `done` of `total` bytes sent at `bytesPerSecond`.
    mutating func update(done: Int, bytesPerSecond: Double) {
        guard enabled else { return }
        let width = 30
        let filled = min(width, done * width / max(total, 1))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data(String(format: "\r[%@] %d/%d bytes  %.1f kB/s ", bar, done, total, bytesPerSecond / 1000).utf8))
        drawn = true
    }

    mutating func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\n".utf8))
        drawn = false
    }
}
