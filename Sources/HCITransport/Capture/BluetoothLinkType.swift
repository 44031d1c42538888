import ReflectorFirmware

/// The link-layer header types (tcpdump.org "Link-Layer Header Types"; libpcap
/// `pcap/bluetooth.h`; Wireshark's pcap-common) that carry Bluetooth HCI, and how each frames
/// a packet, as pcap and pcapng records hold it.
public enum BluetoothLinkType: UInt16, Sendable, CaseIterable {
    /// LINKTYPE_BLUETOOTH_HCI_H4 (187): the H4 packet (indicator first), no direction.
    case h4 = 187
    /// LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR (201): a 4-octet big-endian direction (0 sent by the
    /// host, 1 received), then the H4 packet. What Wireshark writes for a btsnoop 1002 capture.
    case h4WithPseudoHeader = 201
    /// LINKTYPE_BLUETOOTH_LINUX_MONITOR (254): adapter index and monitor opcode, 2 octets each
    /// big-endian, then the packet without an indicator (`LinuxMonitorOpcode`).
    case linuxMonitor = 254

    /// The packet of one record's data, or nil for a record that holds no HCI packet (a monitor
    /// note, a new index). Throws a message for data that is not what the link type says.
    func packet(_ data: ArraySlice<UInt8>) throws(LinkTypeFailure) -> (HCIPacket, BTSnoopDirection?, UInt16)? {
        switch self {
        case .h4:
            return (try Self.h4(data), nil, 0)
        case .h4WithPseudoHeader:
            guard data.count >= 4 else { throw LinkTypeFailure("record shorter than the 4-octet direction pseudo-header") }
            let s = data.startIndex
            let d = UInt32(data[s]) << 24 | UInt32(data[s + 1]) << 16 | UInt32(data[s + 2]) << 8 | UInt32(data[s + 3])
            let direction: BTSnoopDirection = d & 1 == 0 ? .hostToController : .controllerToHost
            return (try Self.h4(data.dropFirst(4)), direction, 0)
        case .linuxMonitor:
            guard data.count >= 4 else { throw LinkTypeFailure("record shorter than the 4-octet monitor pseudo-header") }
            let s = data.startIndex
            let adapter = UInt16(data[s]) << 8 | UInt16(data[s + 1])
            let opcode = UInt16(data[s + 2]) << 8 | UInt16(data[s + 3])
            guard let (indicator, direction) = LinuxMonitorOpcode.packet(opcode) else { return nil }
            return (HCIPacket(indicator: indicator, bytes: Array(data.dropFirst(4))), direction, adapter)
        }
    }

    static func h4(_ data: ArraySlice<UInt8>) throws(LinkTypeFailure) -> HCIPacket {
        guard let first = data.first else { throw LinkTypeFailure("empty record: no H4 packet indicator") }
        guard let indicator = HCIPacketIndicator(rawValue: first) else {
            throw LinkTypeFailure("unknown H4 packet indicator 0x\(String(first, radix: 16, uppercase: true))")
        }
        return HCIPacket(indicator: indicator, bytes: Array(data.dropFirst()))
    }
}

struct LinkTypeFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
