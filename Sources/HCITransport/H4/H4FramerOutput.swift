import ReflectorFirmware

/// One item out of `H4Framer.feed(_:)`: a complete packet, or a framing error the framer has
/// already recovered from (the offending octet is skipped). Kept in stream order so the caller
/// can see where in the traffic sync was lost.
public enum H4FramerOutput: Sendable, Equatable {
    case packet(HCIPacket)
    case framingError(H4FramingError)
}
