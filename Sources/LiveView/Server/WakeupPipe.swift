import Glibc

/// A pipe whose read end sits in the server's poll() set, so another thread can wake the loop
/// (new events, a stop) without a timeout. Both ends are non-blocking: a full pipe already
/// holds a wakeup, so a failed write loses nothing.
final class WakeupPipe: @unchecked Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(LiveViewError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .system("pipe", errno) }
        SocketCalls.nonBlocking(fds[0])
        SocketCalls.nonBlocking(fds[1])
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    func wake() {
        var b: UInt8 = 1
        _ = write(writeEnd, &b, 1)
    }

    /// Empties the pipe (the loop has woken).
    func drain() {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &buffer, { read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
