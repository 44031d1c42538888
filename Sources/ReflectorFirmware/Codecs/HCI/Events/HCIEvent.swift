import WireFormat

/// An HCI event's parameters as a value type with its event code (Core 6.0 Vol 4 Part E
/// §5.4.4, §7.7), for the events that are not LE Meta subevents (those are `LEMetaSubevent`).
/// The parameter codec comes from `HCIParameters`; this adds the packet.
public protocol HCIEvent: HCIParameters {
    static var eventCode: UInt8 { get }
}

extension HCIEvent {
    /// The whole event packet.
    public var packet: HCIEventPacket { HCIEventPacket(eventCode: Self.eventCode, parameters: encode()) }

    /// Parses `packet`, checking its event code (`.unexpectedCode` otherwise).
    public static func decode(packet: HCIEventPacket) throws(DecodeError) -> Self {
        guard packet.eventCode == eventCode else { throw .unexpectedCode(expected: Int(eventCode), found: Int(packet.eventCode)) }
        return try decode(packet.parameters)
    }
}
