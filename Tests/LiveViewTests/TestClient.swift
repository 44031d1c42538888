import Foundation
import LiveView

/// A browser stand-in on a real loopback socket: sends octets, reads with a deadline on every
/// read (poll() before each), and picks Server-Sent Events out of what arrives.
final class TestClient {
    struct Timeout: Error, CustomStringConvertible {
        var what: String
        var description: String { "timed out waiting for \(what)" }
    }

    let fd: Int32
    private(set) var received: [UInt8] = []
    private(set) var closedByServer = false

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer (a
    /// client that never reads then fills it at once).
    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard r == 0 else {
            close(fd)
            throw Timeout(what: "connect: errno \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ octets: [UInt8]) {
        var offset = 0
        while offset < octets.count {
            let n = octets.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, octets.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// `GET target` with a loopback Host, or the given one.
    func get(_ target: String, host: String = "127.0.0.1", method: String = "GET") {
        send("\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: test\r\n\r\n")
    }

    /// Reads once, waiting at most `timeout` seconds; false when nothing came.
    @discardableResult
    func readOnce(timeout: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = recv(fd, &buffer, buffer.count, 0)
        if n <= 0 {
            closedByServer = true
            return false
        }
        received += buffer[0..<n]
        return true
    }

    /// Reads until `done` holds of what arrived, the server closes, or `timeout` passes.
    func read(timeout: Double, what: String, until done: (TestClient) -> Bool) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !done(self) {
            guard !closedByServer else { throw Timeout(what: "\(what) (the server closed)") }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Timeout(what: what) }
            readOnce(timeout: min(left, 1))
        }
    }

    /// Reads the whole answer (until the server closes).
    func readToEnd(timeout: Double = 10) throws -> String {
        try read(timeout: timeout, what: "the end of the answer") { $0.closedByServer }
        return text
    }

    var text: String { String(decoding: received, as: UTF8.self) }

    /// The status code of the answer's first line.
    var status: Int? {
        guard text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }

    /// The answer's body (after the head).
    var body: String {
        guard let r = text.range(of: "\r\n\r\n") else { return "" }
        return String(text[r.upperBound...])
    }

    /// The complete events received so far: id (nil for none), name, data.
    var events: [(id: UInt64?, name: String, data: String)] {
        var out: [(id: UInt64?, name: String, data: String)] = []
        for block in body.components(separatedBy: "\n\n").dropLast() {
            var id: UInt64?
            var name = "message"
            var data: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("id: ") { id = UInt64(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            if !data.isEmpty { out.append((id, name, data.joined(separator: "\n"))) }
        }
        return out
    }
}

extension TestClient {
    /// Whether the last 256 KiB received contain `text` (cheap on a long stream).
    func tailContains(_ text: String) -> Bool {
        String(decoding: received.suffix(262_144), as: UTF8.self).contains(text)
    }
}
