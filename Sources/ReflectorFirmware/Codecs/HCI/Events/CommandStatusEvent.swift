import WireFormat

/// The Command Status event (0x0F) that acknowledges a command whose result comes later in
/// another event (Core 6.0 Vol 4 Part E §7.7.15): `Status 1 | Num_HCI_Command_Packets 1 | Command_Opcode 2`.
public struct CommandStatusEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var numHCICommandPackets: UInt8
    public var opcode: UInt16

    public static let eventCode: UInt8 = HCIEventPacket.commandStatusCode

    public init(status: HCIStatus, numHCICommandPackets: UInt8 = 1, opcode: UInt16) {
        self.status = status
        self.numHCICommandPackets = numHCICommandPackets
        self.opcode = opcode
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 4)
        w.u8(status.rawValue)
        w.u8(numHCICommandPackets)
        w.u16(opcode)
        return w.bytes
    }

    public static func decode(_ parameters: some Collection<UInt8>) throws(DecodeError) -> CommandStatusEvent {
        var r = ByteReader(parameters)
        let s = try r.status()
        let n = try r.u8("Num_HCI_Command_Packets")
        let op = try r.u16("Command_Opcode")
        try r.expectEnd()
        return CommandStatusEvent(status: s, numHCICommandPackets: n, opcode: op)
    }

    public var packet: HCIEventPacket { HCIEventPacket(eventCode: Self.eventCode, parameters: encode()) }

    public static func decode(packet: HCIEventPacket) throws(DecodeError) -> CommandStatusEvent {
        guard packet.eventCode == eventCode else { throw .unexpectedCode(expected: Int(eventCode), found: Int(packet.eventCode)) }
        return try decode(packet.parameters)
    }
}
