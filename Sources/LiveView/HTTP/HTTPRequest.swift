/// One HTTP/1.1 request head as `HTTPRequestParser` read it (RFC 9112 §3, §5): the method, the
/// request target exactly as sent (never decoded: nothing here turns it into a path), the
/// version and the header fields in their order.
public struct HTTPRequest: Equatable, Sendable {
    public var method: String
    public var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    /// Field names as sent; values with the surrounding whitespace removed.
    public var headers: [(name: String, value: String)]

    public init(method: String, target: String, minorVersion: Int = 1, headers: [(name: String, value: String)] = []) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
    }

    /// The values of the fields named `name` (field names are case-insensitive, RFC 9110 §5.1).
    public func values(of name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.target == b.target && a.minorVersion == b.minorVersion
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }
}
