import WireFormat

/// The Command Status event (0x0F) that acknowledges a command whose result comes later in
/// another event (Core 6.0 Vol 4 Part E §7.7.15): `Status 1 | Num_HCI_Command_Packets 1 | Command_Opcode 2`.
public struct CommandStatusEvent: HCIEvent, HCIFieldWalk {
    public var status: HCIStatus
    public var numHCIPackets: UInt8
    public var opcode: UInt16

    public static let eventCode: UInt8 = HCIEventCode.commandStatus
    public static var name: StaticString { "Command Status" }

    public init(status: HCIStatus, numHCIPackets: UInt8 = 1, opcode: UInt16) {
        (self.status, self.numHCIPackets, self.opcode) = (status, numHCIPackets, opcode)
    }

    public static var blank: Self { Self(status: .success, opcode: 0) }

    public mutating func fields<C: FieldCoder>(_ c: inout C) throws(C.Failure) {
        try c.status(&status)
        try c.u8(&numHCIPackets, "Num_HCI_Command_Packets")
        try c.u16(&opcode, "Command_Opcode")
    }

}
