import Glibc

/// One browser connection as the server's loop sees it: reading its request, writing an
/// answer before closing, streaming events, or lingering after the answer (reading what the
/// client still sends until it closes, so closing never resets a connection whose answer is
/// still on its way).
final class ClientConnection {
    enum Phase: Equatable {
        case reading
        case answering
        case streaming
        case lingering
    }

    let id: Int
    let fd: Int32
    var phase = Phase.reading
    var parser: HTTPRequestParser
    /// Octets to send, from `sent` on: an answer, or at most one batch of events (the next
    /// batch is taken only when this one is out, so a stalled client holds one batch here and
    /// its bounded queue in the broadcaster, nothing more).
    private(set) var output: [UInt8] = []
    private(set) var sent = 0
    /// When the current phase gives up: the request's deadline, the linger's end.
    var deadline: Double

    init(id: Int, fd: Int32, limits: HTTPRequestParser.Limits, deadline: Double) {
        self.id = id
        self.fd = fd
        parser = HTTPRequestParser(limits: limits)
        self.deadline = deadline
    }

    var hasOutput: Bool { sent < output.count }

    func append(_ octets: [UInt8]) {
        if !hasOutput {
            output.removeAll(keepingCapacity: true)
            sent = 0
        }
        output += octets
    }

    /// Sends what it can; false when the connection is gone.
    func write() -> Bool {
        while hasOutput {
            let result = output.withUnsafeBytes { SocketCalls.send(fd, UnsafeRawBufferPointer(rebasing: $0[sent...])) }
            switch result {
            case .octets(let n): sent += n
            case .wouldBlock: return true
            case .closed: return false
            }
        }
        return true
    }

    /// The answer is out: no more to send, read until the client closes or `deadline`.
    func linger(until deadline: Double) {
        shutdown(fd, Int32(SHUT_WR))
        phase = .lingering
        self.deadline = deadline
    }
}
