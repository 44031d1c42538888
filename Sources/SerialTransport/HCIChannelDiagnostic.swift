import HCITransport

/// Something that went wrong on the line but that the channel recovered from, for a log. The
/// packet flow goes on: these are reported, counted in `HCIChannelStatistics`, never thrown.
public enum HCIChannelDiagnostic: Sendable, Equatable {
    /// A garbage octet skipped, or a header declaring a length over the limit.
    case framingError(H4FramingError)
    /// An incomplete packet that stalled past the stall timeout was dropped.
    case stalledPartialPacketDropped(octets: Int, offset: Int)
}
