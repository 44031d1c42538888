import WireFormat

/// Which events the host wants (Core 6.0 Vol 4 Part E §7.3.1 Set Event Mask and §7.8.1 LE Set
/// Event Mask). Controllers start with the spec's defaults, which leave the LE Meta event and
/// every CS subevent masked: a host must unmask them, and a controller must not send them until
/// it does.
///
/// The bits are named here rather than written as shifts: for every event this project sends,
/// Set Event Mask bit code − 1 unmasks event `code` (Disconnection Complete 0x05 is bit 4,
/// Encryption Change 0x08 bit 7, Read Remote Version Information Complete 0x0C bit 11, LE Meta
/// 0x3E bit 61), and LE Set Event Mask bit code − 1 unmasks LE subevent `code`.
public struct EventMasks: Sendable, Equatable {
    /// Set Event Mask; default 0x00001FFFFFFFFFFF.
    public var events: UInt64 = EventMasks.defaultEvents
    /// LE Set Event Mask; default 0x1F.
    public var leEvents: UInt64 = EventMasks.defaultLEEvents

    public init() {}

    /// Set Event Mask after HCI Reset (§7.3.1).
    public static let defaultEvents: UInt64 = 0x0000_1FFF_FFFF_FFFF
    /// LE Set Event Mask after HCI Reset (§7.8.1): LE subevents 0x01...0x05.
    public static let defaultLEEvents: UInt64 = 0x1F

    /// The Set Event Mask bit of event `code` (`HCIEventCode`).
    public static func bit(forEvent code: UInt8) -> UInt64 { code >= 1 && code <= 64 ? 1 << UInt64(code - 1) : 0 }

    /// The LE Set Event Mask bit of LE subevent `code` (`LESubeventCode`).
    public static func bit(forLESubevent code: UInt8) -> UInt64 { code >= 1 && code <= 64 ? 1 << UInt64(code - 1) : 0 }

    /// LE Set Event Mask bits 43...50: the eight CS subevents 0x2C (Read Remote Supported
    /// Capabilities Complete) ... 0x33 (Test End Complete).
    public static let channelSoundingLEEvents: UInt64 = 0xFF << 43

    /// The 8-octet little-endian mask of a Set Event Mask or LE Set Event Mask command (shorter
    /// parameters give the low octets; the commands check the length first).
    public static func mask(_ parameters: [UInt8]) -> UInt64 {
        var r = ByteReader(parameters)
        return (try? r.uint(min(8, parameters.count), "Event_Mask")) ?? 0
    }

    /// Whether event `code` may be sent.
    public func allows(event code: UInt8) -> Bool { events & Self.bit(forEvent: code) != 0 }

    /// The LE Meta event is bit 61 of the event mask.
    public var leMetaEnabled: Bool { allows(event: HCIEventCode.leMeta) }

    /// Whether the LE Meta subevent `code` may be sent (its LE mask bit is code − 1).
    public func allows(leSubevent code: UInt8) -> Bool {
        leMetaEnabled && leEvents & Self.bit(forLESubevent: code) != 0
    }
}
