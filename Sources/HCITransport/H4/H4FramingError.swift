import ReflectorFirmware

/// A loss of H4 synchronisation seen by `H4Framer` (Core 6.0 Vol 4 Part A §2 and its error
/// recovery section: sync is lost on an unknown indicator or an out-of-range length).
///
/// Offsets count octets from the first octet ever fed to the framer, so a log line can point at
/// the exact place in a capture of the serial stream.
public enum H4FramingError: Error, Sendable, Equatable {
    /// `byte` at stream `offset` is not a packet indicator (0x01…0x05). The framer has already
    /// skipped it.
    case unknownIndicator(byte: UInt8, offset: Int)
    /// The header of the packet whose indicator is at stream `offset` declares `length` octets
    /// (header and payload, without the indicator), more than the framer's `maximum`. The framer
    /// has already skipped the indicator octet and resumes scanning at the next one.
    case packetTooLong(indicator: HCIPacketIndicator, length: Int, maximum: Int, offset: Int)

    /// The stream offset of the octet the error is about (the octet that was skipped).
    public var offset: Int {
        switch self {
        case .unknownIndicator(_, let offset), .packetTooLong(_, _, _, let offset): offset
        }
    }
}
