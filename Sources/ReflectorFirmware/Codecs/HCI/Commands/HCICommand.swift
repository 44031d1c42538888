import WireFormat

/// An HCI command's parameters as a value type with its opcode (Core 6.0 Vol 4 Part E §5.4.1),
/// so the controller model can turn a received `HCICommandPacket` into a typed command and back.
public protocol HCICommand: Sendable, Equatable {
    static var opcode: UInt16 { get }
    /// The parameter octets (without opcode and length).
    func encode() -> [UInt8]
    /// Parses the parameter octets; fixed layouts reject extra octets with `.trailingBytes`.
    static func decode(_ parameters: some Collection<UInt8>) throws(DecodeError) -> Self
}

extension HCICommand {
    /// The whole command packet.
    public var packet: HCICommandPacket { HCICommandPacket(opcode: Self.opcode, parameters: encode()) }

    /// Parses `packet`, checking its opcode (`.unexpectedCode` otherwise).
    public static func decode(packet: HCICommandPacket) throws(DecodeError) -> Self {
        guard packet.opcode == opcode else { throw .unexpectedCode(expected: Int(opcode), found: Int(packet.opcode)) }
        return try decode(packet.parameters)
    }
}
