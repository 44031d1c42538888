import WireFormat

/// LL_CS_FAE_REQ (opcode 0x36, no CtrData; Core 6.0 Vol 6 Part B §2.4.2.51, best knowledge):
/// asks the peer for its frequency actuation error table (LE CS Read Remote FAE Table). The
/// peer answers LL_CS_FAE_RSP, or rejects it if it has no FAE table (capabilities "No_FAE").
public struct LLCSFAEReq: LLControlBody {
    public static let opcode = LLControlOpcode.csFAEReq

    public init() {}

    public func encodeBody(into w: inout ByteWriter) {}

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSFAEReq { LLCSFAEReq() }
}
