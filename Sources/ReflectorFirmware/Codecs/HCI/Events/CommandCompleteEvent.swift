import WireFormat

/// The Command Complete event (0x0E) that ends a command with its return parameters
/// (Core 6.0 Vol 4 Part E §7.7.14): `Num_HCI_Command_Packets 1 | Command_Opcode 2 | Return_Parameters`.
/// Return parameters usually start with a Status octet; their layout depends on the opcode.
public struct CommandCompleteEvent: HCIEvent {
    public var numHCIPackets: UInt8
    public var opcode: UInt16
    public var returnParameters: [UInt8]

    public static let eventCode: UInt8 = HCIEventCode.commandComplete
    public static var name: StaticString { "Command Complete" }

    public init(numHCIPackets: UInt8 = 1, opcode: UInt16, returnParameters: [UInt8]) {
        (self.numHCIPackets, self.opcode, self.returnParameters) = (numHCIPackets, opcode, returnParameters)
    }

    /// Return parameters that are only a Status octet, or Status then Connection_Handle.
    public init(numHCIPackets: UInt8 = 1, opcode: UInt16, status: HCIStatus, connectionHandle: UInt16? = nil) {
        var w = ByteWriter(capacity: 3)
        w.u8(status.rawValue)
        if let h = connectionHandle { w.u16(h) }
        self.init(numHCIPackets: numHCIPackets, opcode: opcode, returnParameters: w.bytes)
    }

    /// The Status octet that starts most return parameters.
    public var status: HCIStatus? { returnParameters.first.flatMap { HCIStatus(rawValue: $0) } }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(numHCIPackets)
        w.u16(opcode)
        w.octets(returnParameters)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> CommandCompleteEvent {
        let n = try r.u8("Num_HCI_Command_Packets")
        let op = try r.u16("Command_Opcode")
        let rest = try r.octets(r.remaining, "Return_Parameters")
        return CommandCompleteEvent(numHCIPackets: n, opcode: op, returnParameters: Array(rest))
    }

}
