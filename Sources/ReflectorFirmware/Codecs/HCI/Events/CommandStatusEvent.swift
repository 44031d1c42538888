import WireFormat

/// The Command Status event (0x0F) that acknowledges a command whose result comes later in
/// another event (Core 6.0 Vol 4 Part E §7.7.15): `Status 1 | Num_HCI_Command_Packets 1 | Command_Opcode 2`.
public struct CommandStatusEvent: HCIEvent {
    public var status: HCIStatus
    public var numHCIPackets: UInt8
    public var opcode: UInt16

    public static let eventCode: UInt8 = HCIEventCode.commandStatus

    public init(status: HCIStatus, numHCIPackets: UInt8 = 1, opcode: UInt16) {
        self.status = status
        self.numHCIPackets = numHCIPackets
        self.opcode = opcode
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u8(numHCIPackets)
        w.u16(opcode)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> CommandStatusEvent {
        let s = try r.status()
        let n = try r.u8("Num_HCI_Command_Packets")
        let op = try r.u16("Command_Opcode")
        return CommandStatusEvent(status: s, numHCIPackets: n, opcode: op)
    }

}
