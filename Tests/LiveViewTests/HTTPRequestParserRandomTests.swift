import EmulatorMath
@testable import LiveView
import TestSupport
import Testing

/// The parser on seeded random heads made of HTTP's own pieces (methods, targets, versions,
/// fields, line endings, stray octets): whole and in random chunks it gives the same answer,
/// a request it reads writes back as a head that reads the same, and its route is the page or
/// the stream only for `/` and `/events`.
struct HTTPRequestParserRandomTests {
    static let pieces: [[UInt8]] = [
        "GET", "HEAD", "POST", "G\u{7F}T", " ", "  ", "\t", "/", "/events", "/../etc/passwd", "/%2e%2e/", "?x=1", "HTTP/1.1", "HTTP/1.0",
        "HTTP/2.0", "HTTP/1.", "\r\n", "\n", "\r", "Host", ": ", ":", "localhost:8080", "127.0.0.1", "evil.example", "Last-Event-ID: 3",
        "\0", "\u{1}", "é", String(repeating: "a", count: 300),
    ].map { Array($0.utf8) }

    @Test func randomHeadsAgreeWholeAndInChunks() {
        var rng = SplitMix64(seed: 27)
        let limits = [HTTPRequestParser.Limits(), HTTPRequestParser.Limits(requestLine: 24, headerSection: 96, fields: 3)]
        var requests = 0
        for n in 0..<20_000 {
            var head: [UInt8] = []
            if n % 2 == 0 { head = Array("GET / HTTP/1.1\r\n".utf8) }
            for _ in 0..<rng.below(24) { head += Self.pieces[rng.below(Self.pieces.count)] }
            if rng.below(4) == 0 { head += rng.bytes(rng.below(8)) }
            if rng.below(2) == 0 { head += Array("\r\n\r\n".utf8) }
            let limit = limits[rng.below(limits.count)]
            var whole = HTTPRequestParser(limits: limit)
            let answer = whole.feed(head)
            var chunked = HTTPRequestParser(limits: limit)
            var answers: [HTTPRequestParser.Event] = []
            var start = 0
            while start < head.count {
                let end = min(head.count, start + 1 + rng.below(7))
                if let e = chunked.feed(head[start..<end]) { answers.append(e) }
                start = end
            }
            #expect(answers == (answer.map { [$0] } ?? []), "\(head)")
            #expect(chunked.consumed == whole.consumed)
            guard case .request(let r) = answer else { continue }
            requests += 1
            var again = HTTPRequestParser()
            var text = "\(r.method) \(r.target) HTTP/1.\(r.minorVersion)\r\n"
            for (name, value) in r.headers { text += "\(name): \(value)\r\n" }
            #expect(again.feed(Array((text + "\r\n").utf8)) == .request(r))
            switch LiveViewRoute.of(r, loopbackOnly: true) {
            case .page: #expect(r.target == "/" || r.target.hasPrefix("/?"))
            case .events: #expect(r.target == "/events" || r.target.hasPrefix("/events?"))
            case .refuse(let status): #expect([400, 404, 405, 421].contains(status))
            }
        }
        // Enough of them were requests for the checks after reading to mean something.
        #expect(requests > 500, "\(requests)")
    }
}
