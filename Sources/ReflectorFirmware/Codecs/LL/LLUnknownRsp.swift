import WireFormat

/// LL_UNKNOWN_RSP (opcode 0x07, 1 octet of CtrData; Core 6.0 Vol 6 Part B §2.4.2.8): the
/// answer of a controller that does not know or support a received control PDU, for example a
/// pre-6.0 controller receiving LL_CS_CAPABILITIES_REQ. The requester ends the procedure with
/// Unsupported Remote Feature (0x1A).
///
/// Layout: `Unknown_Type 1`, the opcode that was not understood (any value).
public struct LLUnknownRsp: LLControlBody {
    public static let opcode = LLControlOpcode.unknownRsp

    public var unknownType: UInt8

    public init(unknownType: UInt8) { self.unknownType = unknownType }

    public func encodeBody(into w: inout ByteWriter) { w.u8(unknownType) }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLUnknownRsp {
        LLUnknownRsp(unknownType: try r.u8("Unknown_Type"))
    }
}
