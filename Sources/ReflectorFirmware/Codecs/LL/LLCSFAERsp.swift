import WireFormat

/// LL_CS_FAE_RSP (opcode 0x37, 72 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.52, best
/// knowledge): the sender's frequency actuation error table, one int8 per allowed CS channel
/// in units of 1/32 ppm (`FAETable`), reported by the requester in LE CS Read Remote FAE Table
/// Complete.
///
/// Layout: `FAE_Table int8[72]` (NimBLE PR #1765 `ble_ll_cs_rx_fae_req` appends its 72-octet
/// table; Telink `rf_pkt_ll_cs_fae_rsp_t`). 73 octets with the opcode: the link needs a data
/// length above the 27-octet default.
public struct LLCSFAERsp: LLControlBody {
    public static let opcode = LLControlOpcode.csFAERsp

    public var table: FAETable

    public init(table: FAETable) { self.table = table }

    public func encodeBody(into w: inout ByteWriter) { table.encode(into: &w) }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSFAERsp {
        LLCSFAERsp(table: try FAETable.decode(from: &r))
    }
}
