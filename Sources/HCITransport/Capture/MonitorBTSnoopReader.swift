import ReflectorFirmware

/// btsnoop files of datalink 2001, BlueZ's Linux monitor format as `btmon -w` writes it
/// (BlueZ `src/shared/btsnoop.h`, `BTSNOOP_FORMAT_MONITOR`): the usual 16-octet file header
/// and 24-octet big-endian record headers, with the record's flags holding the adapter index
/// (upper 16 bits) and the monitor opcode (lower 16, `LinuxMonitorOpcode`), and the data the
/// packet without an H4 indicator. Records that are not HCI packets (index announcements,
/// notes, logging) are passed over. Pure and total: the first malformed spot ends the read.
public enum MonitorBTSnoopReader {
    public static func parse(_ bytes: [UInt8]) -> PacketCapture {
        var out = PacketCapture()
        do throws(CaptureFileError) { try read(bytes, into: &out) } catch { out.error = error }
        return out
    }

    /// The records of `bytes` into `out` until the first malformed spot, thrown.
    private static func read(_ bytes: [UInt8], into out: inout PacketCapture) throws(CaptureFileError) {
        guard bytes.count >= 16 else {
            throw CaptureFileError(offset: 0, "not a btsnoop file: \(bytes.count) octets, shorter than the 16-octet file header")
        }
        guard bytes.starts(with: BTSnoopFileHeader.identification) else {
            throw CaptureFileError(offset: 0, "not a btsnoop file: it does not start with \"btsnoop\\0\"")
        }
        let version = be32(bytes, 8), datalink = be32(bytes, 12)
        guard version == 1 else {
            throw CaptureFileError(offset: 0, "unsupported btsnoop version \(version) (only 1 is defined)")
        }
        guard datalink == BTSnoopDatalink.linuxMonitor.rawValue else {
            throw CaptureFileError(offset: 0, "btsnoop datalink \(datalink) is not the Linux monitor's (2001)")
        }
        var offset = 16
        while offset < bytes.count {
            try CaptureRecordFrame.checkHeader(bytes, at: offset, headerLength: 24)
            let original = be32(bytes, offset), included = be32(bytes, offset + 4), flags = be32(bytes, offset + 8)
            let timestamp = Int64(bitPattern: UInt64(be32(bytes, offset + 16)) << 32 | UInt64(be32(bytes, offset + 20)))
            let data = try CaptureRecordFrame.data(bytes, at: offset, headerLength: 24, included: included, original: original, lengthName: "included")
            if let (indicator, direction) = LinuxMonitorOpcode.packet(UInt16(truncatingIfNeeded: flags)) {
                let unix = timestamp &- BTSnoopTimestamp.unixEpochOffset
                out.packets.append(CapturedPacket(packet: HCIPacket(indicator: indicator, bytes: Array(bytes[data])),
                                                  direction: direction, adapter: UInt16(truncatingIfNeeded: flags >> 16),
                                                  unixMicroseconds: unix, offset: offset))
            }
            offset = data.upperBound
        }
    }

    /// A monitor-format btsnoop file of `packets` (for tests and tools): each on adapter
    /// `packet.adapter`, timestamps as given (0 when absent).
    public static func encode(_ packets: [CapturedPacket]) -> [UInt8] {
        var out = BTSnoopFileHeader.identification + [0, 0, 0, 1] + be(BTSnoopDatalink.linuxMonitor.rawValue)
        for p in packets {
            let n = UInt32(p.packet.bytes.count)
            let opcode = LinuxMonitorOpcode.opcode(p.packet.indicator, p.direction ?? .controllerToHost)
            let ts = UInt64(bitPattern: (p.unixMicroseconds ?? 0) &+ BTSnoopTimestamp.unixEpochOffset)
            out += be(n) + be(n) + be(UInt32(p.adapter) << 16 | UInt32(opcode)) + be(0) + be(UInt32(ts >> 32)) + be(UInt32(truncatingIfNeeded: ts))
            out += p.packet.bytes
        }
        return out
    }

    static func be32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    static func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
}
