import CPty
import Glibc

/// Every POSIX call this module makes, each behind one thin function that returns the result or
/// an `Errno` (the swift-system pattern). Nothing here decides anything: timeouts, retries and
/// error meanings live in the callers and in `SerialError.mapping`, so they can be read and
/// tested apart from the OS. EINTR is retried here (`retryingEINTR`), since no caller wants to see it.
enum SystemCalls {
    /// The kind of file at a path, from `stat(2)` (which follows symbolic links) or `lstat(2)`.
    enum FileKind: Equatable {
        case characterDevice, regularFile, directory, symbolicLink, other
    }

    /// `stat(2)` (`followLinks`) or `lstat(2)`.
    static func fileKind(_ path: String, followLinks: Bool = true) -> Result<FileKind, Errno> {
        var st = stat()
        let rc = followLinks ? stat(path, &st) : lstat(path, &st)
        guard rc == 0 else { return .failure(.current) }
        switch st.st_mode & S_IFMT {
        case S_IFCHR: return .success(.characterDevice)
        case S_IFREG: return .success(.regularFile)
        case S_IFDIR: return .success(.directory)
        case S_IFLNK: return .success(.symbolicLink)
        default: return .success(.other)
        }
    }

    /// Runs `call` again while it fails with EINTR (a signal arrived; no caller wants to see
    /// it): its value when `call` returns one, else the `Errno` it failed with (`call` returns
    /// nil on failure, with `errno` set). swift-system's `valueOrErrno(retryOnInterrupt:)`.
    static func retryingEINTR<T>(_ call: () -> T?) -> Result<T, Errno> {
        while true {
            if let value = call() { return .success(value) }
            let e = Errno.current
            if e != .interrupted { return .failure(e) }
        }
    }

    /// `open(2)` with `O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC`: never become the controlling
    /// terminal, never block in open (a modem line without carrier would), never leak into
    /// child processes.
    static func openTerminal(_ path: String) -> Result<Int32, Errno> {
        retryingEINTR {
            let fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            return fd >= 0 ? fd : nil
        }
    }

    /// `close(2)`. Errors are ignored: the descriptor is gone either way on Linux.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// `isatty(3)`.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// `flock(fd, LOCK_EX | LOCK_NB)`: the advisory lock libserialport's `sp_open` also takes,
    /// so two programs (or two of ours) don't share a port unknowingly.
    static func lockExclusive(_ fd: Int32) -> Result<Void, Errno> {
        retryingEINTR { flock(fd, LOCK_EX | LOCK_NB) == 0 ? () : nil }
    }

    /// `cpty_make_raw` (C shim): raw 8N1 at `baud` (0 keeps the speed), RTS/CTS on or off,
    /// VMIN = VTIME = 0, via `tcgetattr`/`cfmakeraw`/`tcsetattr` (and termios2 for odd rates).
    static func makeRaw(_ fd: Int32, baud: Int, rtsCts: Bool) -> Result<Void, Errno> {
        cpty_make_raw(fd, Int32(clamping: baud), rtsCts ? 1 : 0) == 0 ? .success(()) : .failure(.current)
    }

    /// `cpty_open` (C shim): `posix_openpt(O_RDWR | O_NOCTTY)`, `grantpt`, `unlockpt`,
    /// `ptsname_r`, master in raw mode. Returns the master fd and the replica's path.
    static func openPseudoTerminal() -> Result<(master: Int32, replicaPath: String), Errno> {
        var name = [CChar](repeating: 0, count: 256)
        let fd = cpty_open(&name, name.count)
        guard fd >= 0 else { return .failure(.current) }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .success((fd, path))
    }

    /// `fcntl(F_SETFL, O_NONBLOCK)` on top of the current flags (the pty master from
    /// `posix_openpt` starts blocking).
    static func setNonblocking(_ fd: Int32) -> Result<Void, Errno> {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { return .failure(.current) }
        return .success(())
    }

    /// What `poll(2)` reported for one descriptor: nothing (timeout), or its `revents`.
    struct PollEvents: Equatable {
        var rawValue: Int16
        var readable: Bool { rawValue & Int16(POLLIN) != 0 }
        var writable: Bool { rawValue & Int16(POLLOUT) != 0 }
        /// POLLHUP: the other end hung up (a pty master whose replicas all closed; a tty whose
        /// device went away).
        var hangup: Bool { rawValue & Int16(POLLHUP) != 0 }
        /// POLLERR or POLLNVAL.
        var error: Bool { rawValue & Int16(POLLERR | POLLNVAL) != 0 }
        var none: Bool { rawValue == 0 }
    }

    /// `poll(2)` on one descriptor for `POLLIN` (or `POLLOUT` with `forWriting`), waiting at
    /// most `milliseconds` (0: just look). Returns empty events on timeout. EINTR is retried
    /// with the full timeout, which can only lengthen a wait by a signal's worth.
    static func poll(_ fd: Int32, forWriting: Bool = false, milliseconds: Int) -> Result<PollEvents, Errno> {
        var pfd = pollfd(fd: fd, events: Int16(forWriting ? POLLOUT : POLLIN), revents: 0)
        let timeout = Int32(clamping: max(0, milliseconds))
        return retryingEINTR {
            let rc = Glibc.poll(&pfd, 1, timeout)
            return rc >= 0 ? PollEvents(rawValue: rc == 0 ? 0 : pfd.revents) : nil
        }
    }

    /// `poll(2)` on several descriptors for `POLLIN`, waiting at most `milliseconds`; returns
    /// each one's events (all empty on timeout). EINTR is retried as in `poll(_:milliseconds:)`.
    static func poll(_ fds: [Int32], milliseconds: Int) -> Result<[PollEvents], Errno> {
        var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let timeout = Int32(clamping: max(0, milliseconds))
        return retryingEINTR {
            let rc = pfds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeout) }
            return rc >= 0 ? pfds.map { PollEvents(rawValue: rc == 0 ? 0 : $0.revents) } : nil
        }
    }

    /// `read(2)` of at most `max` bytes. An empty array is end of file (read returned 0).
    static func read(_ fd: Int32, max: Int) -> Result<[UInt8], Errno> {
        var buffer = [UInt8](repeating: 0, count: Swift.max(1, max))
        return retryingEINTR {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n >= 0 else { return nil }
            buffer.removeSubrange(n...)
            return buffer
        }
    }

    /// `write(2)` of `bytes[offset...]`; returns how many the kernel took.
    static func write(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> Result<Int, Errno> {
        retryingEINTR {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            return n >= 0 ? n : nil
        }
    }

    /// `symlink(2)`.
    static func symlink(target: String, at path: String) -> Result<Void, Errno> {
        Glibc.symlink(target, path) == 0 ? .success(()) : .failure(.current)
    }

    /// `rename(2)`: atomically replaces `to` (used to swap in a new symbolic link).
    static func rename(_ from: String, to: String) -> Result<Void, Errno> {
        Glibc.rename(from, to) == 0 ? .success(()) : .failure(.current)
    }

    /// `unlink(2)`.
    static func unlink(_ path: String) -> Result<Void, Errno> {
        Glibc.unlink(path) == 0 ? .success(()) : .failure(.current)
    }

    /// `readlink(2)`: the target of a symbolic link.
    static func readLink(_ path: String) -> Result<String, Errno> {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return .failure(.current) }
        return .success(String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// `getpid(2)`, to name temporary files uniquely.
    static func processID() -> Int32 { getpid() }

    /// `clock_gettime(CLOCK_MONOTONIC)` in milliseconds: for deadlines and stall timers, which
    /// must not jump when the wall clock is set.
    static func monotonicMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// `clock_gettime(CLOCK_REALTIME)` in microseconds since 1970: for capture timestamps.
    static func wallClockMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
