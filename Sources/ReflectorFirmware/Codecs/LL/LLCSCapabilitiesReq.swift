import WireFormat

/// LL_CS_CAPABILITIES_REQ (opcode 0x2E, 25 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.44,
/// best knowledge): asks the peer for its CS capabilities and carries the sender's own, so one
/// exchange informs both sides (NimBLE PR #1765 stores the remote capabilities from the request
/// and answers with its own).
///
/// The body is the 25-octet LL capabilities block, encoded and checked by
/// `CSCapabilities.encodeLL(into:)` / `CSCapabilities(llBody:)`; its layout is documented there.
/// Core 6.3 fields without an LL position (IPT, 2M RTT N values) are not carried.
public struct LLCSCapabilitiesReq: LLControlBody {
    public static let opcode = LLControlOpcode.csCapabilitiesReq

    /// The sender's capabilities.
    public var capabilities: CSCapabilities

    public init(capabilities: CSCapabilities) { self.capabilities = capabilities }

    public func encodeBody(into w: inout ByteWriter) { capabilities.encodeLL(into: &w) }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSCapabilitiesReq {
        LLCSCapabilitiesReq(capabilities: try CSCapabilities(llBody: r.octets(r.remaining, "CS_Capabilities")))
    }
}
