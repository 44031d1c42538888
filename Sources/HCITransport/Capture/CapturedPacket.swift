import ReflectorFirmware

/// One HCI packet of a capture file, whatever the file's format (btsnoop 1001/1002/2001, pcap,
/// pcapng): the packet, which way it went when the format says, which controller (the Linux
/// monitor's adapter index, or a pcapng interface), and where its record starts in the file.
public struct CapturedPacket: Sendable, Equatable {
    public var packet: HCIPacket
    /// `nil` when the format does not say (LINKTYPE_BLUETOOTH_HCI_H4, 187).
    public var direction: BTSnoopDirection?
    /// The controller: the Linux monitor's adapter index; in pcapng, interface index × 256 plus
    /// that index; else 0.
    public var adapter: UInt16
    /// Microseconds since the Unix epoch, when the record has a timestamp.
    public var unixMicroseconds: Int64?
    /// File offset of the record (its header), in octets from the start of the file.
    public var offset: Int

    public init(packet: HCIPacket, direction: BTSnoopDirection?, adapter: UInt16 = 0, unixMicroseconds: Int64? = nil, offset: Int) {
        self.packet = packet
        self.direction = direction
        self.adapter = adapter
        self.unixMicroseconds = unixMicroseconds
        self.offset = offset
    }
}

/// Where a capture file could not be read and why, in words for a one-line message; `offset`
/// is where the bad record (or header) starts: the packets before it were read.
public struct CaptureFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "byte offset \(offset): \(message)" }
}

/// The packets of a capture file and, when reading stopped early, why.
public struct PacketCapture: Sendable, Equatable {
    public var packets: [CapturedPacket]
    public var error: CaptureFileError?

    public init(packets: [CapturedPacket] = [], error: CaptureFileError? = nil) {
        self.packets = packets
        self.error = error
    }
}
