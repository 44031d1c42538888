import WireFormat

/// An LE Meta subevent's parameters as a value type with its subevent code
/// (Core 6.0 Vol 4 Part E §7.7.65), for events whose layout needs no outside context.
public protocol LEMetaSubevent: Sendable, Equatable {
    static var subeventCode: UInt8 { get }
    /// The parameter octets after the subevent code.
    func encode() -> [UInt8]
    /// Parses the parameter octets after the subevent code.
    static func decode(_ parameters: some Collection<UInt8>) throws(DecodeError) -> Self
}

extension LEMetaSubevent {
    /// The whole LE Meta event packet.
    public var packet: HCIEventPacket { HCIEventPacket(leSubevent: Self.subeventCode, body: encode()) }

    /// Parses `packet`, checking that it is this LE Meta subevent (`.unexpectedCode` otherwise).
    public static func decode(packet: HCIEventPacket) throws(DecodeError) -> Self {
        try decode(try packet.leSubeventBody(subeventCode))
    }
}
