@testable import LiveView
import Testing

/// The request parser on vectors, each fed whole, one octet at a time and split at every
/// octet: the same answer every way, and never more octets read than the head.
struct HTTPRequestParserTests {
    typealias Event = HTTPRequestParser.Event

    static let vectors: [(String, Event)] = [
        ("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
         .request(HTTPRequest(method: "GET", target: "/", headers: [("Host", "127.0.0.1:8080")]))),
        ("GET /events?x=1 HTTP/1.0\n\n", .request(HTTPRequest(method: "GET", target: "/events?x=1", minorVersion: 0))),
        ("\r\n\r\nHEAD / HTTP/1.1\r\nHost:localhost\r\nAccept:  text/event-stream \t\r\nLast-Event-ID: 7\r\n\r\n",
         .request(HTTPRequest(method: "HEAD", target: "/", headers: [("Host", "localhost"), ("Accept", "text/event-stream"), ("Last-Event-ID", "7")]))),
        ("GET /../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", .request(HTTPRequest(method: "GET", target: "/../etc/passwd", headers: [("Host", "x")]))),
        ("X-Y /a HTTP/1.1\r\nEmpty:\r\n\r\n", .request(HTTPRequest(method: "X-Y", target: "/a", headers: [("Empty", "")]))),
        // Bad request lines.
        ("GET  / HTTP/1.1\r\n\r\n", .failure(.badRequestLine)),
        ("GET /\r\n\r\n", .failure(.badRequestLine)),
        ("GET / HTTP/1.1 extra\r\n\r\n", .failure(.badRequestLine)),
        ("G(T / HTTP/1.1\r\n\r\n", .failure(.badRequestLine)),
        ("GET / http/1.1\r\n\r\n", .failure(.badRequestLine)),
        ("GET / HTTP/1.10\r\n\r\n", .failure(.badRequestLine)),
        ("GET /\u{e9} HTTP/1.1\r\n\r\n", .failure(.badRequestLine)),
        ("GET\t/ HTTP/1.1\r\n\r\n", .failure(.badRequestLine)),
        ("GET / HTTP/2.0\r\n\r\n", .failure(.unsupportedVersion)),
        ("GET / HTTP/1.2\r\n\r\n", .failure(.unsupportedVersion)),
        ("\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\n\r\n", .failure(.badRequestLine)),
        // Bad characters and fields.
        ("GET / HTTP/1.1\rHost: x\r\n\r\n", .failure(.badCharacter)),
        ("GET /\0 HTTP/1.1\r\n\r\n", .failure(.badCharacter)),
        ("GET / HTTP/1.1\r\nHost: a\u{1}b\r\n\r\n", .failure(.badCharacter)),
        ("GET / HTTP/1.1\r\nHost : x\r\n\r\n", .failure(.badHeader)),
        ("GET / HTTP/1.1\r\nNoColon\r\n\r\n", .failure(.badHeader)),
        ("GET / HTTP/1.1\r\n: empty name\r\n\r\n", .failure(.badHeader)),
        ("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", .failure(.badHeader)),
    ]

    @Test(arguments: vectors.indices)
    func everySplitGivesTheSameAnswer(index: Int) {
        let (text, expected) = Self.vectors[index]
        let octets = Array(text.utf8)
        // Whole, with octets after the head that must not be read.
        var whole = HTTPRequestParser()
        #expect(whole.feed(octets + Array("GET /next HTTP/1.1\r\n\r\n".utf8)) == expected, "\(text.debugDescription)")
        if case .request = expected { #expect(whole.consumed == octets.count) }
        #expect(whole.isFinished && whole.feed(octets) == nil)
        // One octet at a time.
        var single = HTTPRequestParser()
        var answers: [Event] = []
        for b in octets { if let e = single.feed([b]) { answers.append(e) } }
        #expect(answers == [expected], "\(text.debugDescription)")
        // Split in two at every octet.
        for cut in 0...octets.count {
            var p = HTTPRequestParser()
            let first = p.feed(octets[..<cut])
            let answer = first ?? p.feed(octets[cut...])
            #expect(answer == expected, "\(text.debugDescription) cut at \(cut)")
        }
    }

    @Test func anIncompleteHeadAsksForMore() {
        var p = HTTPRequestParser()
        #expect(p.feed(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)) == nil)
        #expect(!p.isFinished)
        #expect(p.feed(Array("\r\n".utf8)) == .request(HTTPRequest(method: "GET", target: "/", headers: [("Host", "x")])))
    }

    @Test func aRequestLineOverTheLimitFailsAsSoonAsItIs() {
        var p = HTTPRequestParser(limits: .init(requestLine: 64))
        let line = "GET /" + String(repeating: "a", count: 200) + " HTTP/1.1\r\n\r\n"
        #expect(p.feed(Array(line.utf8)) == .failure(.requestLineTooLong))
        // It stopped reading at the first octet past the limit.
        #expect(p.consumed == 65)
        // At the limit exactly, it is read.
        var q = HTTPRequestParser(limits: .init(requestLine: 17))
        #expect(q.feed(Array("GET /abc HTTP/1.1\n\n".utf8)) == .request(HTTPRequest(method: "GET", target: "/abc")))
    }

    @Test func anOversizedHeaderSectionFails() {
        var p = HTTPRequestParser(limits: .init(headerSection: 1024))
        let big = "GET / HTTP/1.1\r\nCookie: " + String(repeating: "c", count: 5000) + "\r\n\r\n"
        #expect(p.feed(Array(big.utf8)) == .failure(.headerTooLarge))
        #expect(p.consumed < 1100)
        // Many small fields add up to the same limit.
        var q = HTTPRequestParser(limits: .init(headerSection: 1024))
        let many = "GET / HTTP/1.1\r\n" + String(repeating: "A: 0123456789012345678901234567890123456789\r\n", count: 40) + "\r\n"
        #expect(q.feed(Array(many.utf8)) == .failure(.headerTooLarge))
        // And the count of fields has its own limit.
        var r = HTTPRequestParser(limits: .init(fields: 3))
        #expect(r.feed(Array("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n".utf8)) == .failure(.headerTooLarge))
        var s = HTTPRequestParser(limits: .init(fields: 3))
        if case .request(let req) = s.feed(Array("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n".utf8)) {
            #expect(req.headers.count == 3)
        } else {
            Issue.record("three fields within a limit of three")
        }
    }

    @Test func errorsMapToTheirStatus() {
        #expect(HTTPRequestError.requestLineTooLong.status == 414)
        #expect(HTTPRequestError.headerTooLarge.status == 431)
        #expect(HTTPRequestError.unsupportedVersion.status == 505)
        #expect([HTTPRequestError.badRequestLine, .badHeader, .badCharacter].allSatisfy { $0.status == 400 })
    }

    @Test func fieldNamesAreCaseInsensitive() {
        let r = HTTPRequest(method: "GET", target: "/", headers: [("host", "a"), ("HOST", "b")])
        #expect(r.values(of: "Host") == ["a", "b"])
    }
}
