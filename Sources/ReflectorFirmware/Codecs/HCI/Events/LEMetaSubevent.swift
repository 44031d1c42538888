import WireFormat

/// An LE Meta subevent (Core 6.0 Vol 4 Part E §7.7.65) that writes itself: parameters after the
/// subevent code (`HCIParametersEncodable`) and the whole LE Meta packet. The subevent results
/// are only this: they need the role to decode their steps, so they decode with their own
/// `decode(_:role:sequencePCT:)`.
public protocol LEMetaSubeventEncodable: HCIParametersEncodable {
    static var subeventCode: UInt8 { get }
    /// The spec's name of the subevent ("LE CS Config Complete"), for messages.
    static var name: StaticString { get }
}

/// An LE Meta subevent whose layout needs no outside context, so it also decodes itself.
public protocol LEMetaSubevent: LEMetaSubeventEncodable, HCIParameters {}

extension LEMetaSubeventEncodable {
    /// The whole LE Meta event packet.
    public var packet: HCIPacket { HCIPacket(leSubevent: Self.subeventCode, body: encode()) }
}

extension LEMetaSubevent {
    /// Parses `packet`, checking that it is this LE Meta subevent (`.unexpectedCode` otherwise).
    public static func decode(packet: HCIPacket) throws(DecodeError) -> Self {
        try decode(try packet.leSubeventBody(subeventCode))
    }
}
