import ReflectorFirmware

/// The opcodes of BlueZ's monitor channel (Linux `include/net/bluetooth/hci_mon.h`,
/// `HCI_MON_*`), which btsnoop datalink 2001 puts in a record's flags (adapter index in the
/// upper 16 bits, opcode in the lower) and LINKTYPE_BLUETOOTH_LINUX_MONITOR in its
/// pseudo-header: which records are HCI packets, of what type, and which way they went.
public enum LinuxMonitorOpcode {
    public static let newIndex: UInt16 = 0, deleteIndex: UInt16 = 1
    public static let commandPacket: UInt16 = 2, eventPacket: UInt16 = 3
    public static let aclTransmit: UInt16 = 4, aclReceive: UInt16 = 5
    public static let scoTransmit: UInt16 = 6, scoReceive: UInt16 = 7
    public static let isoTransmit: UInt16 = 18, isoReceive: UInt16 = 19

    /// The packet type and direction of `opcode`, or nil for a record that is not an HCI packet
    /// (index announcements, system notes, user logging, management commands and events).
    public static func packet(_ opcode: UInt16) -> (HCIPacketIndicator, BTSnoopDirection)? {
        switch opcode {
        case commandPacket: (.command, .hostToController)
        case eventPacket: (.event, .controllerToHost)
        case aclTransmit: (.aclData, .hostToController)
        case aclReceive: (.aclData, .controllerToHost)
        case scoTransmit: (.synchronousData, .hostToController)
        case scoReceive: (.synchronousData, .controllerToHost)
        case isoTransmit: (.isoData, .hostToController)
        case isoReceive: (.isoData, .controllerToHost)
        default: nil
        }
    }

    /// The opcode of a packet, for writing a monitor capture.
    public static func opcode(_ indicator: HCIPacketIndicator, _ direction: BTSnoopDirection) -> UInt16 {
        let out = direction == .hostToController
        switch indicator {
        case .command: return commandPacket
        case .event: return eventPacket
        case .aclData: return out ? aclTransmit : aclReceive
        case .synchronousData: return out ? scoTransmit : scoReceive
        case .isoData: return out ? isoTransmit : isoReceive
        }
    }
}
