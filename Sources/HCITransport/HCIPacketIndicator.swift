/// The H4 (UART) packet indicator that precedes every HCI packet on a serial line and in a
/// btsnoop record's payload (Core 6.0 Vol 4 Part A §2).
public enum HCIPacketIndicator: UInt8, Sendable, Equatable, CaseIterable {
    case command = 0x01
    case aclData = 0x02
    case synchronousData = 0x03
    case event = 0x04
    case isoData = 0x05
}
