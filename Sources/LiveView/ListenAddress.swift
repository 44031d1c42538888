/// Where the view listens, from `[ADDR:]PORT`: loopback (127.0.0.1) unless an address is
/// given; `localhost` is 127.0.0.1, an IPv6 address is written in brackets (`[::1]:8080`).
/// Port 0 asks the system for a free port.
public struct ListenAddress: Equatable, Sendable {
    /// A numeric IPv4 or IPv6 address (no brackets).
    public var host: String
    public var port: UInt16

    public init(host: String = "127.0.0.1", port: UInt16) {
        self.host = host
        self.port = port
    }

    public init(parsing text: String) throws(LiveViewError) {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { throw .badAddress(text) }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
            guard host.contains(":") else { throw .badAddress(text) }
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            guard !host.contains(":") else { throw .badAddress(text) }
            if host.lowercased() == "localhost" { host = "127.0.0.1" }
        }
        guard !host.isEmpty, !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = UInt16(portText) else { throw .badAddress(text) }
        guard host.contains(":") ? Self.isIPv6(host) : Self.isIPv4(host) else { throw .badAddress(text) }
        self.host = host
        self.port = port
    }

    /// Whether only this machine can reach it (127.0.0.0/8 or ::1).
    public var isLoopback: Bool { host == "::1" || host.split(separator: ".").first == "127" }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { p in !p.isEmpty && p.count <= 3 && p.allSatisfy { $0.isASCII && $0.isNumber } && UInt8(p) != nil }
    }

    static func isIPv6(_ host: String) -> Bool {
        !host.isEmpty && host.count <= 45 && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
