/// The ACL connection CS runs on, as the controller knows it: its handle, which side is central
/// (the central starts CS security and owns connection-event numbering), and its interval.
public struct LinkConnection: Sendable, Equatable {
    public var handle: UInt16
    public var isCentral: Bool
    /// Connection interval in units of 1.25 ms (6 = 7.5 ms, the shortest).
    public var interval: UInt16
    /// The connection event counter at the time the controller last looked.
    public var eventCounter: UInt16 = 0

    public init(handle: UInt16, isCentral: Bool, interval: UInt16 = 6) {
        self.handle = handle
        self.isCentral = isCentral
        self.interval = max(interval, 6)
    }

    public var intervalMicroseconds: UInt32 { UInt32(interval) * 1250 }
}
