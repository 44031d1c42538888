import WireFormat

/// An HCI command's parameters as a value type with its opcode (Core 6.0 Vol 4 Part E §5.4.1),
/// so the controller model can turn a received command packet into a typed command and back.
/// The parameter codec comes from `HCIParameters`; this adds the packet.
public protocol HCICommand: HCIParameters {
    static var opcode: UInt16 { get }
}

extension HCICommand {
    /// The whole command packet.
    public var packet: HCIPacket { HCIPacket(opcode: Self.opcode, parameters: encode()) }

    /// Parses `packet`, checking that it is this command (`.unexpectedCode` otherwise).
    public static func decode(packet: HCIPacket) throws(DecodeError) -> Self { try decode(packet.parameters(ofCommand: opcode)) }
}
