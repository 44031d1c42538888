import Glibc

/// The socket calls the server makes, each a thin wrapper over the C call with its errno
/// turned into `LiveViewError` or a result the loop can switch on. Nothing here decides.
enum SocketCalls {
    /// A non-blocking listening TCP socket bound to `address`; returns it and the port bound
    /// (the system's choice for port 0).
    static func listen(on address: ListenAddress, backlog: Int32 = 64) throws(LiveViewError) -> (fd: Int32, port: UInt16) {
        let v6 = address.host.contains(":")
        let fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var storage = sockaddr_storage()
        var length: socklen_t
        if v6 {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = address.port.bigEndian
            guard inet_pton(AF_INET6, address.host, &a.sin6_addr) == 1 else {
                close(fd)
                throw .badAddress(address.authority)
            }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeBytes(of: a) { src in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: src) } }
        } else {
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_port = address.port.bigEndian
            guard inet_pton(AF_INET, address.host, &a.sin_addr) == 1 else {
                close(fd)
                throw .badAddress(address.authority)
            }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeBytes(of: a) { src in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: src) } }
        }
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else {
            let e = errno
            close(fd)
            throw .system("bind \(address.authority)", e)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let e = errno
            close(fd)
            throw .system("listen", e)
        }
        length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let port = withUnsafeBytes(of: storage) { raw -> UInt16 in
            // sin_port and sin6_port sit at the same offset, right after the family.
            UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self))
        }
        return (fd, port)
    }

    /// A connection waiting on `listener`, non-blocking; nil when there is none (or it failed).
    static func accept(_ listener: Int32) -> Int32? {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        nonBlocking(fd)
        return fd
    }

    /// O_NONBLOCK and FD_CLOEXEC on `fd` (accept4 and pipe2 are not in Swift's Glibc module).
    static func nonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    enum Transfer: Equatable {
        case octets(Int)
        /// Nothing now (EAGAIN).
        case wouldBlock
        /// The peer closed, or the connection failed.
        case closed
    }

    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 { return .octets(n) }
            if n == 0 { return .closed }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .closed
        }
    }

    /// Sends without SIGPIPE for a peer that has gone (MSG_NOSIGNAL).
    static func send(_ fd: Int32, _ octets: UnsafeRawBufferPointer) -> Transfer {
        while true {
            let n = Glibc.send(fd, octets.baseAddress, octets.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return .octets(n) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .closed
        }
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
