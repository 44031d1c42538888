#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `ByteLink` over an open file descriptor of a terminal (serial port or pty), with poll(2)
/// for every wait, so no read blocks longer than its timeout. It neither opens nor configures
/// the terminal: callers put it in raw mode first (CPty's cpty_make_raw, or termios).
public final class FileDescriptorLink: ByteLink {
    public let fd: Int32
    private let owned: Bool
    /// How long a write may wait for the terminal to drain.
    public var writeTimeoutMilliseconds = 5_000

    /// Wraps `fd`; with `closeOnDeinit` the link closes it when released.
    public init(fd: Int32, closeOnDeinit: Bool = true) {
        self.fd = fd
        owned = closeOnDeinit
    }

    deinit {
        if owned { _ = close(fd) }
    }

    public func write(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n > 0 { done += n; continue }
            let e = errno
            if n < 0, e == EINTR { continue }
            if n < 0, e == EAGAIN {
                guard try wait(for: Int16(POLLOUT), milliseconds: writeTimeoutMilliseconds) else {
                    throw ByteLinkError.writeTimeout(milliseconds: writeTimeoutMilliseconds)
                }
                continue
            }
            if e == EIO { throw ByteLinkError.closed }
            throw ByteLinkError.system(operation: "write", detail: String(cString: strerror(e)))
        }
    }

    public func read(max: Int, timeoutMilliseconds: Int) throws -> [UInt8] {
        guard try wait(for: Int16(POLLIN), milliseconds: timeoutMilliseconds) else { return [] }
        var buffer = [UInt8](repeating: 0, count: Swift.max(1, max))
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { return Array(buffer[0..<n]) }
            if n == 0 { throw ByteLinkError.closed }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN { return [] }
            if e == EIO { throw ByteLinkError.closed }
            throw ByteLinkError.system(operation: "read", detail: String(cString: strerror(e)))
        }
    }

    /// Waits until `events` is ready; false on timeout. A hang-up without data is `.closed`.
    private func wait(for events: Int16, milliseconds: Int) throws -> Bool {
        var p = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let r = poll(&p, 1, Int32(clamping: milliseconds))
            if r == 0 { return false }
            if r < 0 {
                if errno == EINTR { continue }
                throw ByteLinkError.system(operation: "poll", detail: String(cString: strerror(errno)))
            }
            if p.revents & events != 0 { return true }
            if p.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { throw ByteLinkError.closed }
            return false
        }
    }
}
