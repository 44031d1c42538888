/// Which events the host wants (Core 6.0 Vol 4 Part E §7.3.1 Set Event Mask and §7.8.1 LE Set
/// Event Mask). Controllers start with the spec's defaults, which leave the LE Meta event and
/// every CS subevent masked: a host must unmask them, and a controller must not send them until
/// it does.
public struct EventMasks: Sendable, Equatable {
    /// Set Event Mask; default 0x00001FFFFFFFFFFF.
    public var events: UInt64 = 0x0000_1FFF_FFFF_FFFF
    /// LE Set Event Mask; default 0x1F.
    public var leEvents: UInt64 = 0x1F

    public init() {}

    /// The LE Meta event is bit 61 of the event mask.
    public var leMetaEnabled: Bool { events & (1 << 61) != 0 }

    /// Whether the LE Meta subevent `code` may be sent (its LE mask bit is code − 1).
    public func allows(leSubevent code: UInt8) -> Bool {
        leMetaEnabled && code >= 1 && code <= 64 && leEvents & (1 << UInt64(code - 1)) != 0
    }
}
