import WireFormat

/// An HCI command packet without its H4 indicator: a transport-independent frame the host sends
/// and the controller model parses (Core 6.0 Vol 4 Part E §5.4.1).
///
/// Layout: `Opcode 2 (OCF bits 0–9, OGF bits 10–15) | Parameter_Total_Length 1 | Parameters`.
public struct HCICommandPacket: Sendable, Equatable {
    public var opcode: UInt16
    public var parameters: [UInt8]

    /// The parameter length is one octet.
    public static let maxParameterLength = 255

    public init(opcode: UInt16, parameters: [UInt8]) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// OGF, the opcode group (0x08 for LE commands).
    public var ogf: UInt8 { UInt8(truncatingIfNeeded: opcode >> 10) }
    /// OCF, the command within its group.
    public var ocf: UInt16 { opcode & 0x03FF }

    /// The packet octets. Traps if `parameters` exceeds 255 octets (a programming error).
    public func encode() -> [UInt8] {
        precondition(parameters.count <= HCICommandPacket.maxParameterLength, "HCI command parameters exceed 255 octets")
        var w = ByteWriter(capacity: 3 + parameters.count)
        w.u16(opcode)
        w.u8(UInt8(parameters.count))
        w.octets(parameters)
        return w.bytes
    }

    /// Parses one whole packet; the length octet must match the octets that follow exactly.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> HCICommandPacket {
        var r = ByteReader(bytes)
        let opcode = try r.u16("Opcode")
        let length = Int(try r.u8("Parameter_Total_Length"))
        let params = try r.octets(length, "Parameters")
        try r.expectEnd()
        return HCICommandPacket(opcode: opcode, parameters: Array(params))
    }
}
