import Foundation

/// The server's thread: one poll() over the wakeup pipe, the listening socket and every
/// client; accepts, reads requests, answers them (`LiveViewRoute`), and writes the events the
/// broadcaster queued, in batches at most every `batchInterval` seconds. Everything it owns is
/// touched by this thread only; `stop` is the one call from outside.
final class ServerLoop: @unchecked Sendable {
    let listener: Int32
    let wakeup: WakeupPipe
    let broadcaster: LiveBroadcaster
    let page: [UInt8]
    let loopbackOnly: Bool
    let configuration: LiveViewServer.Configuration
    private var clients: [ClientConnection] = []
    private var nextClientID = 1
    /// Events are queued that streaming clients have not been given.
    private var eventsWaiting = false
    private var lastBatch = 0.0
    private var lastHeartbeat = 0.0
    private var stopRequested = false
    private let stopLock = NSLock()
    private var receiveBuffer = [UInt8](repeating: 0, count: 16_384)

    init(listener: Int32, wakeup: WakeupPipe, broadcaster: LiveBroadcaster, page: [UInt8], loopbackOnly: Bool,
         configuration: LiveViewServer.Configuration) {
        self.listener = listener
        self.wakeup = wakeup
        self.broadcaster = broadcaster
        self.page = page
        self.loopbackOnly = loopbackOnly
        self.configuration = configuration
    }

    func requestStop() {
        stopLock.lock()
        stopRequested = true
        stopLock.unlock()
        wakeup.wake()
    }

    private var stopping: Bool {
        stopLock.lock()
        defer { stopLock.unlock() }
        return stopRequested
    }

    /// Runs until `requestStop`; then gives every streaming client what is queued (one try,
    /// not waiting) and closes every socket.
    func run() {
        lastHeartbeat = SocketCalls.now()
        while !stopping {
            var fds = [pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
            let accepting = clients.count < configuration.maxConnections
            fds.append(pollfd(fd: accepting ? listener : -1, events: Int16(POLLIN), revents: 0))
            for c in clients {
                fds.append(pollfd(fd: c.fd, events: Int16(POLLIN) | (c.hasOutput ? Int16(POLLOUT) : 0), revents: 0))
            }
            _ = poll(&fds, nfds_t(fds.count), timeoutMilliseconds())
            if stopping { break }
            let now = SocketCalls.now()
            if fds[0].revents != 0 {
                wakeup.drain()
                eventsWaiting = true
            }
            if fds[1].revents != 0 { acceptAll(now) }
            // The clients polled are the first `fds.count - 2` of `clients` (accepted ones come after).
            var gone: Set<Int> = []
            for (i, f) in fds.dropFirst(2).enumerated() where f.revents != 0 {
                if !serve(clients[i], revents: f.revents, now: now) { gone.insert(clients[i].id) }
            }
            for c in clients where !gone.contains(c.id) && c.deadline <= now && c.phase != .streaming {
                if c.phase == .reading {
                    // A request that never completed: 408, then close.
                    c.append(HTTPResponseHead.refusal(status: 408))
                    c.phase = .answering
                    c.deadline = now + configuration.requestTimeout
                    if !c.write() {
                        gone.insert(c.id)
                    } else if !c.hasOutput {
                        c.linger(until: now + configuration.lingerTime)
                    }
                } else {
                    gone.insert(c.id)
                }
            }
            if eventsWaiting && now - lastBatch >= configuration.batchInterval {
                sendBatch(now, gone: &gone)
            }
            if now - lastHeartbeat >= configuration.heartbeatInterval {
                lastHeartbeat = now
                for c in clients where c.phase == .streaming && !c.hasOutput && !gone.contains(c.id) {
                    c.append(Array(": keep-alive\n\n".utf8))
                    if !c.write() { gone.insert(c.id) }
                }
            }
            if !gone.isEmpty { forget(gone) }
        }
        var lost: Set<Int> = []
        sendBatch(SocketCalls.now(), gone: &lost)
        forget(Set(clients.map(\.id)))
        close(listener)
    }

    private func timeoutMilliseconds() -> Int32 {
        let now = SocketCalls.now()
        var next = lastHeartbeat + configuration.heartbeatInterval
        if eventsWaiting { next = min(next, lastBatch + configuration.batchInterval) }
        for c in clients where c.phase != .streaming { next = min(next, c.deadline) }
        return Int32(max(0, min(60, next - now)) * 1000 + 1)
    }

    private func acceptAll(_ now: Double) {
        while clients.count < configuration.maxConnections, let fd = SocketCalls.accept(listener) {
            clients.append(ClientConnection(id: nextClientID, fd: fd, limits: configuration.limits, deadline: now + configuration.requestTimeout))
            nextClientID += 1
        }
    }

    /// Handles `c`'s poll events; false when it is to be forgotten.
    private func serve(_ c: ClientConnection, revents: Int16, now: Double) -> Bool {
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let result = receiveBuffer.withUnsafeMutableBytes { SocketCalls.receive(c.fd, into: $0) }
            switch result {
            case .closed:
                return false
            case .wouldBlock:
                break
            case .octets(let n):
                // A streaming or lingering client's octets are read and dropped.
                if c.phase == .reading, let event = c.parser.feed(receiveBuffer[0..<n]) {
                    answer(c, event, now)
                    // An answer that a client does not read is given up on after as long again.
                    c.deadline = now + configuration.requestTimeout
                }
            }
        }
        guard c.write() else { return false }
        if c.phase == .answering && !c.hasOutput { c.linger(until: now + configuration.lingerTime) }
        if c.phase == .streaming && !c.hasOutput { eventsWaiting = true }
        return true
    }

    private func answer(_ c: ClientConnection, _ event: HTTPRequestParser.Event, _ now: Double) {
        let request: HTTPRequest
        switch event {
        case .failure(let error):
            c.append(HTTPResponseHead.refusal(status: error.status))
            c.phase = .answering
            return
        case .request(let r):
            request = r
        }
        let head = request.method == "HEAD"
        switch LiveViewRoute.of(request, loopbackOnly: loopbackOnly) {
        case .refuse(let status):
            c.append(HTTPResponseHead.refusal(status: status, headOnly: head))
            c.phase = .answering
        case .page:
            c.append(HTTPResponseHead.octets(status: 200, fields: [
                ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", String(page.count)),
                // The page needs nothing but itself and its stream.
                ("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:"),
            ]) + (head ? [] : page))
            c.phase = .answering
        case .events(let lastID):
            let streaming = clients.filter { $0.phase == .streaming }.count
            guard streaming < configuration.maxStreams else {
                c.append(HTTPResponseHead.refusal(status: 503, headOnly: head))
                c.phase = .answering
                return
            }
            c.append(HTTPResponseHead.octets(status: 200, fields: [("Content-Type", "text/event-stream")]))
            if head {
                c.phase = .answering
                return
            }
            c.append(Array("retry: 2000\n\n".utf8))
            for e in broadcaster.join(c.id, after: lastID) { c.append(e.frame) }
            c.phase = .streaming
        }
    }

    /// Gives each streaming client whose previous batch is out everything queued for it.
    private func sendBatch(_ now: Double, gone: inout Set<Int>) {
        lastBatch = now
        eventsWaiting = false
        broadcaster.answerWakeup()
        for c in clients where c.phase == .streaming && !c.hasOutput {
            let (events, dropped) = broadcaster.take(c.id)
            if dropped > 0 { c.append(Array("event: dropped\ndata: {\"dropped\": \(dropped)}\n\n".utf8)) }
            for e in events { c.append(e.frame) }
            if !c.write() { gone.insert(c.id) }
        }
    }

    private func forget(_ ids: Set<Int>) {
        for c in clients where ids.contains(c.id) {
            if c.phase == .streaming { broadcaster.leave(c.id) }
            close(c.fd)
        }
        clients.removeAll { ids.contains($0.id) }
    }
}
