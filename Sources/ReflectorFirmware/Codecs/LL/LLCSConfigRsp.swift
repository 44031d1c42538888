import WireFormat

/// LL_CS_CONFIG_RSP (opcode 0x31, 1 octet of CtrData; Core 6.0 Vol 6 Part B §2.4.2.46, best
/// knowledge): accepts an LL_CS_CONFIG_REQ; both controllers then report LE CS Config Complete.
/// A refusal is an LL_REJECT_EXT_IND naming opcode 0x30 instead.
///
/// Layout: `Config_ID (b0-5) | RFU (b6-7)` (NimBLE PR #1765 answers `*rspbuf = config_id`;
/// Telink `rf_packet_ll_cs_config_rsp_t`). RFU bits are written 0 and ignored.
public struct LLCSConfigRsp: LLControlBody {
    public static let opcode = LLControlOpcode.csConfigRsp

    /// Config_ID, 0...3: the configuration the request created or removed.
    public var configID: UInt8

    public init(configID: UInt8) { self.configID = configID }

    public func encodeBody(into w: inout ByteWriter) { w.u8(configID & 0x3F) }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSConfigRsp {
        LLCSConfigRsp(configID: try r.llConfigIDOctet().configID)
    }
}
