import Glibc

/// One update of the view: a Server-Sent Events message (HTML Living Standard §9.2.6), named
/// and numbered, framed once when it is published so every client's queue shares its octets.
public struct LiveEvent: Sendable {
    /// Increasing from 1 in the order of publishing; the stream's `id:`, so a browser that
    /// reconnects says where it stopped.
    public let id: UInt64
    /// The event type the page listens for ("procedure", "summary", ...).
    public let name: String
    /// `id: N`, `event: NAME`, the data as `data:` lines, an empty line.
    public let frame: [UInt8]

    public init(id: UInt64, name: String, data: some Collection<UInt8>) {
        self.id = id
        self.name = name
        frame = Self.frame(id: id, name: name, data: data)
    }

    /// The message's octets. A line break in the data (CR, LF or CRLF) starts a new `data:`
    /// line, which the browser joins back with LF; a name is kept to one line the same way.
    static func frame(id: UInt64, name: String, data: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + name.utf8.count + 32)
        out += Array("id: \(id)\nevent: ".utf8)
        out += name.utf8.filter { $0 != 0x0A && $0 != 0x0D }
        out += Array("\ndata: ".utf8)
        // The usual data, JSON on one line, is copied whole.
        let oneLine = data.withContiguousStorageIfAvailable { d -> Bool in
            guard let base = d.baseAddress, memchr(base, 0x0A, d.count) == nil, memchr(base, 0x0D, d.count) == nil else { return d.isEmpty }
            out.append(contentsOf: d)
            return true
        }
        if oneLine == true {
            out += [0x0A, 0x0A]
            return out
        }
        var afterCR = false
        for b in data {
            if b == 0x0A && afterCR {
                afterCR = false
                continue
            }
            afterCR = b == 0x0D
            if b == 0x0A || b == 0x0D { out += Array("\ndata: ".utf8) } else { out.append(b) }
        }
        out += [0x0A, 0x0A]
        return out
    }
}
