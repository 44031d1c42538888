import WireFormat

/// An HCI event's parameters as a value type with its event code (Core 6.0 Vol 4 Part E
/// §5.4.4, §7.7), for the events that are not LE Meta subevents (those are `LEMetaSubevent`).
/// The parameter codec comes from `HCIParameters`; this adds the packet.
public protocol HCIEvent: HCIParameters {
    static var eventCode: UInt8 { get }
    /// The spec's name of the event ("Disconnection Complete"), for messages, as commands have theirs.
    static var name: StaticString { get }
}

extension HCIEvent {
    /// The whole event packet.
    public var packet: HCIPacket { HCIPacket(eventCode: Self.eventCode, parameters: encode()) }

    /// Parses `packet`, checking that it is this event (`.unexpectedCode` otherwise).
    public static func decode(packet: HCIPacket) throws(DecodeError) -> Self { try decode(packet.parameters(ofEvent: eventCode)) }
}
