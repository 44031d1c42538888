import Foundation

/// SIGINT and SIGTERM ask a long-running command to stop at its next loop turn.
enum StopSignal {
    nonisolated(unsafe) static var flag: sig_atomic_t = 0

    static var requested: Bool { flag != 0 }

    static func install() {
        flag = 0
        signal(SIGINT) { _ in StopSignal.flag = 1 }
        signal(SIGTERM) { _ in StopSignal.flag = 1 }
    }

    /// Whether standard input reached its end (the other stop condition of serve).
    static func standardInputClosed() -> Bool {
        var pfd = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, 0) > 0 else { return false }
        if pfd.revents & Int16(POLLIN) != 0 {
            var byte: UInt8 = 0
            return read(STDIN_FILENO, &byte, 1) <= 0
        }
        return pfd.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }
}
