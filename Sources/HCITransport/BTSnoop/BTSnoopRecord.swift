import ReflectorFirmware

/// One btsnoop packet record: a 24-octet header (original length, included length, flags,
/// cumulative drops, timestamp; all big-endian) and the captured octets (Frontline "BTSnoop File
/// Format"; BlueZ `struct btsnoop_pkt`).
///
/// The record holds the packet as an `HCIPacket` rather than as raw datalink octets, so the same
/// value can be written to a 1002 (H4) or a 1001 (un-encapsulated) file. For the same reason it
/// stores how many octets the capture **left out** (`truncatedOctetCount` = original − included)
/// instead of an original length, which would depend on the datalink (1002 counts the indicator,
/// 1001 does not); `originalLength(in:)` gives the field's value for a datalink.
public struct BTSnoopRecord: Sendable, Hashable {
    /// The captured packet (possibly truncated: see `truncatedOctetCount`).
    public var packet: HCIPacket
    /// Direction and command/event bits as written in the file.
    public var flags: BTSnoopPacketFlags
    public var timestamp: BTSnoopTimestamp
    /// Packets lost by the capturing side since the first record (cumulative, per the format).
    public var cumulativeDrops: UInt32
    /// Octets of the original packet not included in the record (0 for a full capture).
    public var truncatedOctetCount: UInt32

    public init(
        packet: HCIPacket, flags: BTSnoopPacketFlags, timestamp: BTSnoopTimestamp,
        cumulativeDrops: UInt32 = 0, truncatedOctetCount: UInt32 = 0
    ) {
        self.packet = packet
        self.flags = flags
        self.timestamp = timestamp
        self.cumulativeDrops = cumulativeDrops
        self.truncatedOctetCount = truncatedOctetCount
    }

    /// A full capture of `packet` going `direction`, with the flags BlueZ and Bumble write.
    public init(packet: HCIPacket, direction: BTSnoopDirection, timestamp: BTSnoopTimestamp, cumulativeDrops: UInt32 = 0) {
        self.init(
            packet: packet, flags: BTSnoopPacketFlags(packet: packet, direction: direction),
            timestamp: timestamp, cumulativeDrops: cumulativeDrops)
    }

    public var direction: BTSnoopDirection { flags.direction }

    /// The record's included-length field for `datalink`: with the indicator for 1002, without
    /// it for 1001.
    public func includedLength(in datalink: BTSnoopDatalink) -> Int {
        packet.bytes.count + (datalink == .hciUART ? 1 : 0)
    }

    /// The record's original-length field for `datalink`.
    public func originalLength(in datalink: BTSnoopDatalink) -> Int {
        includedLength(in: datalink) + Int(truncatedOctetCount)
    }
}
