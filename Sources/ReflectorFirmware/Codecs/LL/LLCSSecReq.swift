import WireFormat

/// LL_CS_SEC_REQ (opcode 0x39, 20 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.42, best
/// knowledge of the section number): the central's half of the CS security material, sent to
/// start the Channel Sounding Security Start procedure once the link is encrypted.
///
/// Layout: `CS_IV_C 8 | CS_IN_C 4 | CS_PV_C 8`, each field little-endian (least significant
/// octet first), as NimBLE PR #1765 (`ble_ll_cs_security_req_make`: the central's halves are
/// the low octets of its little-endian `iv`/`in`/`pv` arrays) and Telink's debug vectors lay it
/// out (`CSSecurityHalves`). The central's halves are the *least* significant halves of CS_IV,
/// CS_IN and CS_PV; see `CSSecurityMaterial` for the combination.
public struct LLCSSecReq: LLControlBody {
    public static let opcode = LLControlOpcode.csSecReq

    /// CS_IV_C, CS_IN_C and CS_PV_C.
    public var central: CSSecurityHalves

    public init(_ central: CSSecurityHalves) { self.central = central }

    public func encodeBody(into w: inout ByteWriter) { central.encode(into: &w) }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSSecReq {
        LLCSSecReq(try CSSecurityHalves.decode(from: &r))
    }
}
