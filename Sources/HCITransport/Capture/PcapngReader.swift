import ReflectorFirmware

/// pcapng files (IETF draft-ietf-opsawg-pcapng): a sequence of blocks, each `type 4 | total
/// length 4 | body | total length 4` in its section's byte order (set by the Section Header
/// Block's byte-order magic 0x1A2B3C4D), of which these are read:
///
/// - Section Header Block (0x0A0D0D0A): starts a section; its interfaces start afresh.
/// - Interface Description Block (1): an interface's link type and its `if_tsresol` option
///   (code 9: 10^−n, or 2^−n with the top bit set; microseconds when absent).
/// - Enhanced Packet Block (6), Simple Packet Block (3, interface 0) and the obsolete Packet
///   Block (2): a packet of an interface.
///
/// Packets of interfaces whose link type is a Bluetooth HCI one (`BluetoothLinkType`) are
/// read, each with `adapter` = interface index × 256 + the Linux monitor's adapter index (0 for
/// the other link types), so that two interfaces, or two controllers on one monitor interface,
/// stay apart; others (an Ethernet interface in the same file) are passed over, as are blocks
/// of other types. Pure and total: the first malformed block ends the read, with its offset.
public enum PcapngReader {
    static let sectionHeader: UInt32 = 0x0A0D_0D0A

    public static func matches(_ head: [UInt8]) -> Bool { head.starts(with: [0x0A, 0x0D, 0x0D, 0x0A]) }

    struct Interface {
        var linkType: BluetoothLinkType?
        var rawLinkType: UInt16
        /// Timestamp units per second are 10^exponent (decimal) or 2^exponent (binary).
        var resolution: (binary: Bool, exponent: Int) = (false, 6)
    }

    public static func parse(_ bytes: [UInt8]) -> PacketCapture {
        var out = PacketCapture()
        var big = false
        var interfaces: [Interface] = []
        var offset = 0
        var sawSection = false
        func u32(_ at: Int) -> UInt32 {
            let v = UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
            return big ? v : v.byteSwapped
        }
        func u16(_ at: Int) -> UInt16 {
            let v = UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
            return big ? v : v.byteSwapped
        }
        while offset < bytes.count {
            let available = bytes.count - offset
            guard available >= 12 else {
                out.error = CaptureFileError(offset: offset, "block header cut short (\(available) of at least 12 octets): the capture is truncated")
                return out
            }
            let rawType = UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
            if rawType == sectionHeader {
                // The byte order comes from the magic at +8, before the length can be read.
                switch (bytes[offset + 8], bytes[offset + 9], bytes[offset + 10], bytes[offset + 11]) {
                case (0x1A, 0x2B, 0x3C, 0x4D): big = true
                case (0x4D, 0x3C, 0x2B, 0x1A): big = false
                default:
                    out.error = CaptureFileError(offset: offset, "section header block without the byte-order magic 0x1A2B3C4D")
                    return out
                }
                interfaces = []
                sawSection = true
            } else if !sawSection {
                out.error = CaptureFileError(offset: 0, "not a pcapng file: it does not start with a section header block")
                return out
            }
            let type = u32(offset)
            let length = u32(offset + 4)
            guard length >= 12, length % 4 == 0 else {
                out.error = CaptureFileError(offset: offset, "malformed block: total length \(length) is not a multiple of 4 of at least 12")
                return out
            }
            guard UInt64(length) <= UInt64(available) else {
                out.error = CaptureFileError(offset: offset, "block cut short (\(length) octets declared, \(available) present): the capture is truncated")
                return out
            }
            let end = offset + Int(length)
            guard u32(end - 4) == length else {
                out.error = CaptureFileError(offset: offset, "malformed block: the trailing total length \(u32(end - 4)) differs from the leading \(length)")
                return out
            }
            let body = offset + 8, bodyEnd = end - 4
            func fail(_ message: String) -> PacketCapture {
                out.error = CaptureFileError(offset: offset, message)
                return out
            }
            switch type {
            case sectionHeader:
                guard bodyEnd - body >= 16 else { return fail("malformed section header block: \(bodyEnd - body) octets of body, at least 16 expected") }
                let major = u16(body + 4)
                guard major == 1 else { return fail("unsupported pcapng version \(major) (1 is read)") }
            case 1:
                guard bodyEnd - body >= 8 else { return fail("malformed interface description block: \(bodyEnd - body) octets of body, at least 8 expected") }
                let raw = u16(body)
                var interface = Interface(linkType: BluetoothLinkType(rawValue: raw), rawLinkType: raw)
                // Options: code 2 | length 2 | value padded to 4; 0 ends them.
                var o = body + 8
                while o + 4 <= bodyEnd {
                    let code = u16(o), n = Int(u16(o + 2))
                    if code == 0 { break }
                    let padded = (n + 3) & ~3
                    guard o + 4 + padded <= bodyEnd else { return fail("malformed interface description block: option \(code) runs past the block") }
                    if code == 9, n >= 1 {
                        let v = bytes[o + 4]
                        interface.resolution = (v & 0x80 != 0, Int(v & 0x7F))
                    }
                    o += 4 + padded
                }
                guard interfaces.count < Int(UInt16.max) else { return fail("more than 65535 interfaces in a section") }
                interfaces.append(interface)
            case 2, 3, 6:
                let id: Int, caplen: Int, headerEnd: Int
                var timestamp: UInt64?
                if type == 3 {
                    guard bodyEnd - body >= 4 else { return fail("malformed simple packet block: no original length") }
                    id = 0
                    caplen = min(Int(u32(body)), bodyEnd - body - 4)
                    headerEnd = body + 4
                } else {
                    guard bodyEnd - body >= 20 else { return fail("malformed packet block: \(bodyEnd - body) octets of body, at least 20 expected") }
                    id = type == 6 ? Int(u32(body)) : Int(u16(body))
                    timestamp = UInt64(u32(body + 4)) << 32 | UInt64(u32(body + 8))
                    let n = u32(body + 12)
                    guard UInt64(n) <= UInt64(bodyEnd - body - 20) else {
                        return fail("malformed packet block: captured length \(n) runs past the block")
                    }
                    caplen = Int(n)
                    headerEnd = body + 20
                }
                guard id < interfaces.count else { return fail("packet block of interface \(id), which has no interface description block before it") }
                let interface = interfaces[id]
                guard let linkType = interface.linkType else { break }  // not Bluetooth: passed over
                do throws(LinkTypeFailure) {
                    if let (packet, direction, adapter) = try linkType.packet(bytes[headerEnd..<(headerEnd + caplen)]) {
                        let micros = timestamp.map { microseconds($0, interface.resolution) }
                        out.packets.append(CapturedPacket(packet: packet, direction: direction,
                                                          adapter: UInt16(truncatingIfNeeded: id << 8) | (adapter & 0xFF),
                                                          unixMicroseconds: micros, offset: offset))
                    }
                } catch {
                    return fail("malformed packet: \(error.message)")
                }
            default:
                break  // name resolution, statistics, custom blocks: nothing to read here
            }
            offset = end
        }
        if !sawSection { out.error = CaptureFileError(offset: 0, "not a pcapng file: no section header block") }
        return out
    }

    /// A timestamp in the interface's units as microseconds (saturating at Int64's range).
    static func microseconds(_ ts: UInt64, _ resolution: (binary: Bool, exponent: Int)) -> Int64 {
        let perSecond = resolution.binary ? pow2(resolution.exponent) : pow10(resolution.exponent)
        let v = Double(ts) * 1e6 / perSecond
        return v.isFinite && v < 9.2e18 ? Int64(v) : Int64.max
    }

    static func pow10(_ n: Int) -> Double { (0..<min(n, 400)).reduce(1.0) { a, _ in a * 10 } }
    static func pow2(_ n: Int) -> Double { (0..<min(n, 2000)).reduce(1.0) { a, _ in a * 2 } }

    /// A pcapng file (for tests): one section, one interface per entry of `linkTypes`
    /// (microsecond resolution), each packet an Enhanced Packet Block on interface
    /// `packet.adapter` (its index into `linkTypes`; a monitor interface's records say adapter 0).
    public static func encode(_ packets: [CapturedPacket], linkTypes: [BluetoothLinkType], bigEndian: Bool = false) -> [UInt8] {
        func u32(_ v: UInt32) -> [UInt8] {
            let b = [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
            return bigEndian ? b : b.reversed()
        }
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(truncatingIfNeeded: v)] : [UInt8(truncatingIfNeeded: v), UInt8(v >> 8)] }
        func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
            let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
            let n = UInt32(12 + padded.count)
            return (type == sectionHeader ? [0x0A, 0x0D, 0x0D, 0x0A] : u32(type)) + u32(n) + padded + u32(n)
        }
        var out = block(sectionHeader, u32(0x1A2B_3C4D) + u16(1) + u16(0) + [UInt8](repeating: 0xFF, count: 8))
        for t in linkTypes { out += block(1, u16(t.rawValue) + u16(0) + u32(262_144)) }
        for p in packets {
            let linkType = linkTypes[min(Int(p.adapter), linkTypes.count - 1)]
            var q = p
            if linkType == .linuxMonitor { q.adapter = 0 }
            let data = linkType.frame(q)
            let ts = UInt64(bitPattern: p.unixMicroseconds ?? 0)
            out += block(6, u32(UInt32(p.adapter)) + u32(UInt32(ts >> 32)) + u32(UInt32(truncatingIfNeeded: ts)) + u32(UInt32(data.count)) + u32(UInt32(data.count)) + data)
        }
        return out
    }
}
