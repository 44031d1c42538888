/// A response's status line and header fields as octets (RFC 9112 §4, §5). Every response of
/// the live view closes its connection after it (or after the event stream), says so, and
/// forbids caching and content sniffing.
public enum HTTPResponseHead {
    /// The reason phrase of each status the live view sends.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 414: return "URI Too Long"
        case 421: return "Misdirected Request"
        case 431: return "Request Header Fields Too Large"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Error"
        }
    }

    /// The head: status line, `fields` in order, then the fields every response carries.
    public static func octets(status: Int, fields: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason(status))\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        text += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
        return Array(text.utf8)
    }

    /// A complete short answer for a refused request: the status and its reason as plain text.
    public static func refusal(status: Int, headOnly: Bool = false) -> [UInt8] {
        let body = Array("\(status) \(reason(status))\n".utf8)
        var fields = [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", String(body.count))]
        if status == 405 { fields.append(("Allow", "GET, HEAD")) }
        return octets(status: status, fields: fields) + (headOnly ? [] : body)
    }
}
