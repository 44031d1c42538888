import WireFormat

/// LL_CS_CAPABILITIES_REQ and LL_CS_CAPABILITIES_RSP (Core 6.0 Vol 6 Part B §2.4.2.44, best
/// knowledge), 25 octets of CtrData each with the same layout:
///
/// - **LL_CS_CAPABILITIES_REQ** (opcode 0x2E) asks the peer for its CS capabilities and carries
///   the sender's own, so one exchange informs both sides (NimBLE PR #1765 stores the remote
///   capabilities from the request and answers with its own).
/// - **LL_CS_CAPABILITIES_RSP** (opcode 0x2F) answers with the responder's capabilities, which
///   the initiating controller reports in LE CS Read Remote Supported Capabilities Complete.
///
/// The body is the 25-octet LL capabilities block, encoded and checked by
/// `CSCapabilities.encodeLL(into:)` / `CSCapabilities(llBody:)`; its layout is documented there.
/// Core 6.3 fields without an LL position (IPT, 2M RTT N values) are not carried, except this
/// project's 3-octet IPT extension (28 octets).
public struct LLCSCapabilities<Direction: LLControlDirection>: LLControlBody {
    public static var opcode: LLControlOpcode { Direction.capabilitiesOpcode }

    /// The sender's capabilities.
    public var capabilities: CSCapabilities

    public init(capabilities: CSCapabilities) { self.capabilities = capabilities }

    public func encodeBody(into w: inout ByteWriter) { capabilities.encodeLL(into: &w) }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSCapabilities {
        LLCSCapabilities(capabilities: try CSCapabilities(llBody: r.octets(r.remaining, "CS_Capabilities")))
    }
}

/// LL_CS_CAPABILITIES_REQ: the requester's capabilities.
public typealias LLCSCapabilitiesReq = LLCSCapabilities<LLRequest>
/// LL_CS_CAPABILITIES_RSP: the responder's capabilities.
public typealias LLCSCapabilitiesRsp = LLCSCapabilities<LLResponse>
