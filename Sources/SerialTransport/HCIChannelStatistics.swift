/// Counters an `HCIChannel` keeps, for a summary line and for tests.
public struct HCIChannelStatistics: Sendable, Equatable {
    public var packetsSent = 0
    public var packetsReceived = 0
    /// Octets skipped as garbage while resynchronising.
    public var skippedOctets = 0
    /// Framing errors (each skipped one octet).
    public var framingErrors = 0
    /// Incomplete packets dropped after stalling, and their octets.
    public var droppedPartialPackets = 0
    public var droppedPartialOctets = 0

    public init() {}
}
