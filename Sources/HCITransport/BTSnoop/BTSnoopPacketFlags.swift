import ReflectorFirmware

/// The 32-bit flags field of a btsnoop record: bit 0 the direction (`BTSnoopDirection`), bit 1
/// set for a command or an event, clear for data. Other bits are reserved and kept as read.
///
/// BlueZ and Bumble write command 2, event 3, ACL out 0, ACL in 1. In a datalink-1001 file the
/// flags are the only record of the packet type (Wireshark's btsnoop reader decodes them so).
public struct BTSnoopPacketFlags: RawRepresentable, Sendable, Hashable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public init(direction: BTSnoopDirection, isCommandOrEvent: Bool) {
        rawValue = direction.rawValue | (isCommandOrEvent ? 0b10 : 0)
    }

    /// The flags BlueZ and Bumble write for `packet` going `direction`.
    public init(packet: HCIPacket, direction: BTSnoopDirection) {
        let control = packet.indicator == .command || packet.indicator == .event
        self.init(direction: direction, isCommandOrEvent: control)
    }

    public var direction: BTSnoopDirection { rawValue & 1 == 0 ? .hostToController : .controllerToHost }
    public var isCommandOrEvent: Bool { rawValue & 0b10 != 0 }
}
