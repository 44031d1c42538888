import ReflectorFirmware

/// Classic pcap files (IETF draft-ietf-opsawg-pcap; libpcap `savefile.c`): a 24-octet file
/// header whose magic gives the byte order and the timestamp unit (0xA1B2C3D4 microseconds,
/// 0xA1B23C4D nanoseconds, written in either order), then 16-octet record headers (seconds,
/// fraction, captured length, original length) each followed by the captured octets. The
/// header's link type must be one of the Bluetooth HCI ones (`BluetoothLinkType`: 187, 201,
/// 254; the upper bits, FCS information, are ignored). Pure and total: the first malformed
/// spot ends the read, with its offset.
public enum PcapReader {
    /// The largest captured length a record may declare (pcap's own limit for most link types).
    public static let maximumRecordLength: UInt32 = 262_144

    /// Whether `head` starts with a pcap magic, in either byte order.
    public static func matches(_ head: [UInt8]) -> Bool {
        guard head.count >= 4 else { return false }
        return magic(head) != nil
    }

    /// (big-endian file, nanosecond timestamps) for a pcap magic.
    static func magic(_ b: [UInt8]) -> (bigEndian: Bool, nanoseconds: Bool)? {
        switch (b[0], b[1], b[2], b[3]) {
        case (0xA1, 0xB2, 0xC3, 0xD4): (true, false)
        case (0xD4, 0xC3, 0xB2, 0xA1): (false, false)
        case (0xA1, 0xB2, 0x3C, 0x4D): (true, true)
        case (0x4D, 0x3C, 0xB2, 0xA1): (false, true)
        default: nil
        }
    }

    public static func parse(_ bytes: [UInt8]) -> PacketCapture {
        var out = PacketCapture()
        do throws(CaptureFileError) { try read(bytes, into: &out) } catch { out.error = error }
        return out
    }

    /// The records of `bytes` into `out` until the first malformed spot, thrown.
    private static func read(_ bytes: [UInt8], into out: inout PacketCapture) throws(CaptureFileError) {
        guard bytes.count >= 24 else {
            throw CaptureFileError(offset: 0, "pcap file header cut short (\(bytes.count) of 24 octets)")
        }
        guard let (big, nano) = magic(bytes) else {
            throw CaptureFileError(offset: 0, "not a pcap file: unknown magic number")
        }
        func u32(_ at: Int) -> UInt32 {
            let v = UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
            return big ? v : v.byteSwapped
        }
        let major = big ? UInt16(bytes[4]) << 8 | UInt16(bytes[5]) : UInt16(bytes[5]) << 8 | UInt16(bytes[4])
        guard major == 2 else {
            throw CaptureFileError(offset: 0, "unsupported pcap version \(major) (2 is read)")
        }
        let rawLinkType = u32(20) & 0x0FFF_FFFF
        guard rawLinkType <= UInt32(UInt16.max), let linkType = BluetoothLinkType(rawValue: UInt16(rawLinkType)) else {
            throw CaptureFileError(offset: 0, "pcap link type \(rawLinkType) is not Bluetooth HCI (187 H4, 201 H4 with direction, 254 Linux monitor are read)")
        }
        var offset = 24
        while offset < bytes.count {
            try CaptureRecordFrame.checkHeader(bytes, at: offset, headerLength: 16)
            let seconds = u32(offset), fraction = u32(offset + 4), included = u32(offset + 8), original = u32(offset + 12)
            let data = try CaptureRecordFrame.data(bytes, at: offset, headerLength: 16, included: included, original: original,
                                                   lengthName: "captured", maximum: maximumRecordLength)
            do throws(LinkTypeFailure) {
                if let (packet, direction, adapter) = try linkType.packet(bytes[data]) {
                    let micros = Int64(seconds) * 1_000_000 + Int64(nano ? fraction / 1000 : fraction)
                    out.packets.append(CapturedPacket(packet: packet, direction: direction, adapter: adapter, unixMicroseconds: micros, offset: offset))
                }
            } catch {
                throw CaptureFileError(offset: offset, "malformed record: \(error.message)")
            }
            offset = data.upperBound
        }
    }

    /// A pcap file of `packets` with `linkType` (for tests): little- or big-endian, micro- or
    /// nanosecond timestamps.
    public static func encode(_ packets: [CapturedPacket], linkType: BluetoothLinkType, bigEndian: Bool = false, nanoseconds: Bool = false) -> [UInt8] {
        func u32(_ v: UInt32) -> [UInt8] {
            let b = [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
            return bigEndian ? b : b.reversed()
        }
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(truncatingIfNeeded: v)] : [UInt8(truncatingIfNeeded: v), UInt8(v >> 8)] }
        var out = u32(nanoseconds ? 0xA1B2_3C4D : 0xA1B2_C3D4) + u16(2) + u16(4) + u32(0) + u32(0) + u32(maximumRecordLength) + u32(UInt32(linkType.rawValue))
        for p in packets {
            let data = linkType.frame(p)
            let micros = p.unixMicroseconds ?? 0
            let fraction = UInt32(truncatingIfNeeded: micros % 1_000_000) * (nanoseconds ? 1000 : 1)
            out += u32(UInt32(truncatingIfNeeded: micros / 1_000_000)) + u32(fraction) + u32(UInt32(data.count)) + u32(UInt32(data.count)) + data
        }
        return out
    }
}

extension BluetoothLinkType {
    /// The record data of `p` in this link type (the inverse of `packet(_:)`).
    public func frame(_ p: CapturedPacket) -> [UInt8] {
        let h4 = [p.packet.indicator.rawValue] + p.packet.bytes
        switch self {
        case .h4: return h4
        case .h4WithPseudoHeader: return [0, 0, 0, p.direction == .controllerToHost ? 1 : 0] + h4
        case .linuxMonitor:
            let opcode = LinuxMonitorOpcode.opcode(p.packet.indicator, p.direction ?? .controllerToHost)
            return [UInt8(p.adapter >> 8), UInt8(truncatingIfNeeded: p.adapter), UInt8(opcode >> 8), UInt8(truncatingIfNeeded: opcode)] + p.packet.bytes
        }
    }
}
