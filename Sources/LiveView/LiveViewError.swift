import Glibc

/// Why the live view could not start.
public enum LiveViewError: Error, Equatable, CustomStringConvertible {
    /// `[ADDR:]PORT` that does not read as an address and a port.
    case badAddress(String)
    /// A system call failed: its name and errno.
    case system(String, Int32)
    /// The page's files (`LiveViewPage`) could not be read: where they were looked for.
    case missingPage(String)

    public var description: String {
        switch self {
        case .badAddress(let text): return "'\(text)' is not [ADDR:]PORT (a port 0-65535, ADDR an IPv4 or [IPv6] address or localhost)"
        case .system(let call, let code): return "\(call): \(String(cString: strerror(code)))"
        case .missingPage(let text): return text
        }
    }
}
