import WireFormat

extension CSCapabilities {
    /// Reads a capabilities block that runs to the end of `r`, choosing the layout by the
    /// number of octets left among `layouts` (v1 messages allow only the 28-octet form, v2
    /// messages the 31- and 34-octet forms).
    static func readBlock(_ r: inout ByteReader, layouts: [CapabilitiesLayout]) throws(DecodeError) -> (CSCapabilities, CapabilitiesLayout) {
        guard let layout = layouts.first(where: { $0.byteCount == r.remaining }) else {
            // Short of the next allowed length: truncated; past the longest: trailing octets.
            if let next = layouts.map({ $0.byteCount }).filter({ $0 > r.remaining }).min() {
                throw .truncated(field: "Capabilities", needed: next - r.remaining)
            }
            throw .trailingBytes(extra: r.remaining - (layouts.map { $0.byteCount }.max() ?? 0))
        }
        return (try CSCapabilities(reading: &r, layout: layout), layout)
    }

    static let v2Layouts: [CapabilitiesLayout] = [.v2, .v2WithPHYSpecificRTT]
}
