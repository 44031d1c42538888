import WireFormat

/// The 16-octet btsnoop file header: identification pattern "btsnoop\0", version (1), datalink
/// type, all integers big-endian (Frontline "BTSnoop File Format", derived from RFC 1761 snoop).
public struct BTSnoopFileHeader: Sendable, Hashable {
    /// `62 74 73 6E 6F 6F 70 00`, "btsnoop" and a NUL.
    public static let identification: [UInt8] = [0x62, 0x74, 0x73, 0x6E, 0x6F, 0x6F, 0x70, 0x00]
    /// The only version the format defines.
    public static let currentVersion: UInt32 = 1
    /// Octets in the header; the first record starts here.
    public static let length = 16

    public var version: UInt32
    public var datalink: BTSnoopDatalink

    public init(version: UInt32 = BTSnoopFileHeader.currentVersion, datalink: BTSnoopDatalink) {
        self.version = version
        self.datalink = datalink
    }

    /// The header's 16 octets.
    public var bytes: [UInt8] {
        var w = ByteWriter(capacity: BTSnoopFileHeader.length)
        w.octets(BTSnoopFileHeader.identification)
        w.u32(version, endianness: .big)
        w.u32(datalink.rawValue, endianness: .big)
        return w.bytes
    }
}
