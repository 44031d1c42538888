/// Whether a request's `Host` names this machine's loopback: `localhost` (or a name under it,
/// RFC 6761 §6.3), an address in 127.0.0.0/8, or `[::1]`, with an optional port. A server bound
/// to loopback answers any other Host 421: a page of another site whose name was made to
/// resolve to 127.0.0.1 (DNS rebinding) sends its own name, and so cannot read the view.
public enum LoopbackHost {
    public static func isLoopback(_ host: String) -> Bool {
        var name = Substring(host.lowercased())
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            let rest = name[name.index(after: close)...]
            guard rest.isEmpty || isPort(rest) else { return false }
            return name[name.index(after: name.startIndex)..<close] == "::1"
        }
        if let colon = name.lastIndex(of: ":") {
            guard isPort(name[colon...]) else { return false }
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ o in !o.isEmpty && o.count <= 3 && o.allSatisfy(\.isASCII) && UInt8(o) != nil }) else {
            return false
        }
        return octets[0] == "127"
    }

    /// `:` and one to five digits.
    static func isPort(_ s: Substring) -> Bool {
        let digits = s.dropFirst()
        return s.first == ":" && (1...5).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
