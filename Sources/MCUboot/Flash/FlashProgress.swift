/// How far an upload has come: octets the bootloader acknowledged, and the rate since the first
/// upload request, from the times the caller passed in.
public struct FlashProgress: Equatable, Sendable {
    public var acknowledged: Int
    public var total: Int
    /// Milliseconds since the first upload request was sent.
    public var elapsedMilliseconds: UInt64

    /// Octets per second; 0 before any time has passed.
    public var bytesPerSecond: Double {
        elapsedMilliseconds == 0 ? 0 : Double(acknowledged) * 1000 / Double(elapsedMilliseconds)
    }
}
