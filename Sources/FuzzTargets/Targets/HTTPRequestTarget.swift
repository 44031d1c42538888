import LiveView

/// The live view's HTTP request parser (`HTTPRequestParser`) and the route it leads to, on
/// whatever a browser, or anything else, sends to the port. Input: a limits selector, a
/// chunking seed, then the octets of the connection.
///
/// Checks: whole and in chunks give the same answer and read the same octets; a request
/// within the limits the parser was given, written again as a head, parses to itself; its
/// route is the page or the stream only for `/` and `/events` (never a path anything else
/// could map to a file); the octets framed as one event's data end the event only at its end.
enum HTTPRequestTarget {
    static let limits: [HTTPRequestParser.Limits] = [
        HTTPRequestParser.Limits(), HTTPRequestParser.Limits(requestLine: 16, headerSection: 64, fields: 2),
        HTTPRequestParser.Limits(requestLine: 1, headerSection: 1, fields: 0), HTTPRequestParser.Limits(requestLine: 256, headerSection: 512, fields: 8),
    ]

    static let target = FuzzTarget("http-request", "HTTPRequestParser: a connection's octets, whole and in chunks, routed; SSE framing",
                                   seeds: seeds) { bytes in
        var input = FuzzInput(bytes)
        let limit = limits[Int(input.byte() & 3)]
        let chunking = input.byte()
        let stream = input.rest()

        var whole = HTTPRequestParser(limits: limit)
        let answer = whole.feed(stream)
        var chunked = HTTPRequestParser(limits: limit)
        var pieces: [HTTPRequestParser.Event] = []
        inChunks(stream, seed: chunking, longest: 1 + Int(chunking >> 2)) { if let e = chunked.feed($0) { pieces.append(e) } }
        require(pieces == (answer.map { [$0] } ?? []), "chunked answer \(pieces) differs from whole \(String(describing: answer))")
        require(chunked.consumed == whole.consumed && whole.consumed <= stream.count, "octets read differ")
        require(whole.isFinished == (answer != nil), "finished without an answer, or the reverse")

        if case .request(let r) = answer {
            require(r.method.utf8.count + r.target.utf8.count + 10 <= limit.requestLine, "a request line over its limit was read")
            require(r.headers.count <= limit.fields, "more fields than the limit were read")
            var again = HTTPRequestParser(limits: HTTPRequestParser.Limits(requestLine: 1 << 20, headerSection: 1 << 20, fields: 1 << 10))
            var head = "\(r.method) \(r.target) HTTP/1.\(r.minorVersion)\r\n"
            for (name, value) in r.headers { head += "\(name): \(value)\r\n" }
            let reread = again.feed(Array((head + "\r\n").utf8))
            require(reread == .request(r), "the head written again reads \(String(describing: reread)), not \(r)")
            for loopbackOnly in [false, true] {
                switch LiveViewRoute.of(r, loopbackOnly: loopbackOnly) {
                case .page:
                    require(r.target == "/" || r.target.hasPrefix("/?"), "the page for target \(r.target)")
                case .events:
                    require(r.target == "/events" || r.target.hasPrefix("/events?"), "the stream for target \(r.target)")
                case .refuse(let status):
                    require([400, 404, 405, 421].contains(status), "status \(status)")
                }
            }
        }

        let frame = LiveEvent(id: 1, name: "fuzz", data: stream).frame
        let ends = zip(frame, frame.dropFirst()).enumerated().filter { $0.element == (0x0A, 0x0A) }.map(\.offset)
        require(ends == [frame.count - 2] && !frame.contains(0x0D), "the data ends its event early or keeps a CR: \(hex(stream))")
    }

    static func seeds() -> [[UInt8]] {
        let heads = [
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: Mozilla/5.0\r\nAccept: text/html\r\n\r\n",
            "GET /events HTTP/1.1\r\nHost: localhost:8080\r\nAccept: text/event-stream\r\nLast-Event-ID: 42\r\n\r\n",
            "HEAD / HTTP/1.0\n\n",
            "GET /../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            "GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello",
            "GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n",
            "GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n",
            "\r\nGET / HTTP/2.0\r\n\r\n",
        ]
        var out: [[UInt8]] = []
        for (i, h) in heads.enumerated() {
            let octets = Array(h.utf8)
            out.append([0, 0] + octets)
            out.append([UInt8(i & 3), UInt8(i * 37 & 0xFF)] + octets)
        }
        return out
    }
}
