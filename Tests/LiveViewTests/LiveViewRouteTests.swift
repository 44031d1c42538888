@testable import LiveView
import Testing

/// What the server answers, decided from the request alone.
struct LiveViewRouteTests {
    static func get(_ target: String, host: String? = "127.0.0.1:8080", method: String = "GET") -> HTTPRequest {
        HTTPRequest(method: method, target: target, headers: host.map { [("Host", $0)] } ?? [])
    }

    @Test func thePageAndTheStream() {
        #expect(LiveViewRoute.of(Self.get("/"), loopbackOnly: true) == .page)
        #expect(LiveViewRoute.of(Self.get("/?t=1"), loopbackOnly: true) == .page)
        #expect(LiveViewRoute.of(Self.get("/", method: "HEAD"), loopbackOnly: true) == .page)
        #expect(LiveViewRoute.of(Self.get("/events"), loopbackOnly: true) == .events(lastEventID: nil))
        var resumed = Self.get("/events")
        resumed.headers.append(("Last-Event-ID", "42"))
        #expect(LiveViewRoute.of(resumed, loopbackOnly: true) == .events(lastEventID: 42))
    }

    @Test(arguments: ["/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2fetc%2fpasswd", "/index.html", "/events/", "//", "/Events", "/%65vents"])
    func anythingElseIsNotFound(target: String) {
        #expect(LiveViewRoute.of(Self.get(target), loopbackOnly: true) == .refuse(status: 404))
    }

    @Test func otherMethodsAreNotAllowed() {
        for m in ["POST", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PATCH", "get"] {
            #expect(LiveViewRoute.of(Self.get("/", method: m), loopbackOnly: true) == .refuse(status: 405), "\(m)")
        }
    }

    @Test func theHostIsChecked() {
        // HTTP/1.1 needs exactly one Host.
        #expect(LiveViewRoute.of(Self.get("/", host: nil), loopbackOnly: true) == .refuse(status: 400))
        var two = Self.get("/")
        two.headers.append(("Host", "localhost"))
        #expect(LiveViewRoute.of(two, loopbackOnly: true) == .refuse(status: 400))
        var old = Self.get("/", host: nil)
        old.minorVersion = 0
        #expect(LiveViewRoute.of(old, loopbackOnly: true) == .page)
        // A name that is not loopback, on a loopback server: DNS rebinding.
        for host in ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "10.0.0.1:8080", "[::2]:80", "localhost:http", "128.0.0.1"] {
            #expect(LiveViewRoute.of(Self.get("/", host: host), loopbackOnly: true) == .refuse(status: 421), "\(host)")
            #expect(LiveViewRoute.of(Self.get("/", host: host), loopbackOnly: false) == .page, "\(host)")
        }
        for host in ["localhost", "LOCALHOST:8080", "localhost.", "view.localhost:1", "127.0.0.1", "127.1.2.3:65535", "[::1]", "[::1]:8080"] {
            #expect(LiveViewRoute.of(Self.get("/", host: host), loopbackOnly: true) == .page, "\(host)")
        }
    }

    @Test func aTargetNotInOriginFormIsBad() {
        #expect(LiveViewRoute.of(Self.get("*"), loopbackOnly: true) == .refuse(status: 400))
        #expect(LiveViewRoute.of(Self.get("http://127.0.0.1/"), loopbackOnly: true) == .refuse(status: 400))
    }

    @Test func listenAddresses() throws {
        #expect(try ListenAddress(parsing: "8080") == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(try ListenAddress(parsing: "localhost:0") == ListenAddress(host: "127.0.0.1", port: 0))
        #expect(try ListenAddress(parsing: "0.0.0.0:80") == ListenAddress(host: "0.0.0.0", port: 80))
        #expect(try ListenAddress(parsing: "[::1]:9000") == ListenAddress(host: "::1", port: 9000))
        #expect(try ListenAddress(parsing: "8080").isLoopback)
        #expect(try ListenAddress(parsing: "[::1]:1").isLoopback)
        #expect(try !ListenAddress(parsing: "0.0.0.0:1").isLoopback)
        for bad in ["", "x", "65536", "-1", "1.2.3:80", "host.example:80", "[::1]", "::1:80", ":80", "127.0.0.1:", "256.0.0.1:80"] {
            #expect(throws: LiveViewError.self, "\(bad)") { try ListenAddress(parsing: bad) }
        }
    }
}
