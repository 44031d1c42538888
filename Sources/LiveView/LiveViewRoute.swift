/// What the live view answers a request with, decided from the request alone (pure): the
/// page, the event stream, or a refusal. Only two targets exist, compared as sent: no target
/// is decoded or mapped to a file, so `/../etc/passwd` and `/%2e%2e/` are simply not found.
public enum LiveViewRoute: Equatable, Sendable {
    case page
    /// The event stream; the browser's `Last-Event-ID` when it reconnects.
    case events(lastEventID: UInt64?)
    case refuse(status: Int)

    /// The route for `request`; `loopbackOnly` (the server listens on loopback) refuses a
    /// Host that is not a loopback name with 421.
    public static func of(_ request: HTTPRequest, loopbackOnly: Bool) -> LiveViewRoute {
        let hosts = request.values(of: "Host")
        // HTTP/1.1 requires exactly one Host (RFC 9112 §3.2).
        if hosts.count > 1 || (hosts.isEmpty && request.minorVersion == 1) { return .refuse(status: 400) }
        if loopbackOnly, let host = hosts.first, !LoopbackHost.isLoopback(host) { return .refuse(status: 421) }
        guard request.method == "GET" || request.method == "HEAD" else { return .refuse(status: 405) }
        guard request.target.hasPrefix("/") else { return .refuse(status: 400) }
        let path = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        switch path {
        case "/": return .page
        case "/events": return .events(lastEventID: request.values(of: "Last-Event-ID").first.flatMap { UInt64($0) })
        default: return .refuse(status: 404)
        }
    }
}
