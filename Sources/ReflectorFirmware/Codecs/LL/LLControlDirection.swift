/// Which half of a request/response pair an LL Control PDU is (Core 6.0 Vol 6 Part B §2.4.2),
/// for the CS PDUs whose request and response carry the same body: LL_CS_SEC_REQ/RSP,
/// LL_CS_CAPABILITIES_REQ/RSP and LL_CS_TERMINATE_REQ/RSP. One generic body type serves both
/// halves of each pair (`LLCSSec`, `LLCSCapabilities`, `LLCSTerminate`); the direction gives its
/// opcode. Types, not values: the opcode stays static, so every PDU keeps its own specialised
/// `LLControlBody` codec.
public protocol LLControlDirection: Sendable {
    static var securityOpcode: LLControlOpcode { get }
    static var capabilitiesOpcode: LLControlOpcode { get }
    static var terminateOpcode: LLControlOpcode { get }
}

/// The request of a pair: LL_CS_SEC_REQ 0x39, LL_CS_CAPABILITIES_REQ 0x2E, LL_CS_TERMINATE_REQ 0x35.
public enum LLRequest: LLControlDirection {
    public static let securityOpcode = LLControlOpcode.csSecReq
    public static let capabilitiesOpcode = LLControlOpcode.csCapabilitiesReq
    public static let terminateOpcode = LLControlOpcode.csTerminateReq
}

/// The response of a pair: LL_CS_SEC_RSP 0x2D, LL_CS_CAPABILITIES_RSP 0x2F, LL_CS_TERMINATE_RSP 0x3A.
public enum LLResponse: LLControlDirection {
    public static let securityOpcode = LLControlOpcode.csSecRsp
    public static let capabilitiesOpcode = LLControlOpcode.csCapabilitiesRsp
    public static let terminateOpcode = LLControlOpcode.csTerminateRsp
}
