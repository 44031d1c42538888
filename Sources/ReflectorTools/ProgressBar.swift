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
