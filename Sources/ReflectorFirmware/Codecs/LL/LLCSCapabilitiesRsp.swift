import WireFormat

/// LL_CS_CAPABILITIES_RSP (opcode 0x2F, 25 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.44,
/// best knowledge): the answer to LL_CS_CAPABILITIES_REQ with the responder's CS capabilities,
/// which the initiating controller reports in LE CS Read Remote Supported Capabilities Complete.
///
/// Same 25-octet body as the request (`CSCapabilities.encodeLL(into:)` / `CSCapabilities(llBody:)`).
public struct LLCSCapabilitiesRsp: LLControlBody {
    public static let opcode = LLControlOpcode.csCapabilitiesRsp

    /// The responder's capabilities.
    public var capabilities: CSCapabilities

    public init(capabilities: CSCapabilities) { self.capabilities = capabilities }

    public func encodeBody(into w: inout ByteWriter) { capabilities.encodeLL(into: &w) }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSCapabilitiesRsp {
        LLCSCapabilitiesRsp(capabilities: try CSCapabilities(llBody: r.octets(r.remaining, "CS_Capabilities")))
    }
}
