/// Why bytes could not be taken as one whole `HCIPacket`, or why a packet could not be built.
public enum HCIPacketError: Error, Sendable, Equatable {
    /// There was no indicator octet at all.
    case empty
    /// The first octet is not an H4 packet indicator (Core 6.0 Vol 4 Part A §2).
    case unknownIndicator(UInt8)
    /// The header is incomplete (`declared == nil`) or declares a payload length other than the
    /// number of octets that follow it.
    case lengthMismatch(declared: Int?, actual: Int)
    /// The payload does not fit the header's length field (255 for commands and events).
    case payloadTooLong(indicator: HCIPacketIndicator, length: Int, maximum: Int)
}
