import WireFormat

/// LL_CS_SEC_REQ and LL_CS_SEC_RSP, the Channel Sounding Security Start procedure's two PDUs,
/// 20 octets of CtrData each with the same layout (`CSSecurityHalves`):
///
/// - **LL_CS_SEC_REQ** (opcode 0x39; Core 6.0 Vol 6 Part B §2.4.2.42, best knowledge of the
///   section number): the central's half of the CS security material, sent once the link is
///   encrypted. `CS_IV_C 8 | CS_IN_C 4 | CS_PV_C 8`, each field little-endian (least
///   significant octet first), as NimBLE PR #1765 (`ble_ll_cs_security_req_make`: the
///   central's halves are the low octets of its little-endian `iv`/`in`/`pv` arrays) and
///   Telink's debug vectors lay it out. The central's halves are the *least* significant
///   halves of CS_IV, CS_IN and CS_PV.
/// - **LL_CS_SEC_RSP** (opcode 0x2D; §2.4.2.43, best knowledge): the peripheral's answer with
///   its half, `CS_IV_P 8 | CS_IN_P 4 | CS_PV_P 8`, each little-endian (NimBLE PR #1765
///   `ble_ll_cs_rx_security_req` copies the high octets of its little-endian arrays). The
///   peripheral's halves are the *most* significant halves. After it both sides instantiate
///   the CS DRBG (h9) from the combined values.
///
/// See `CSSecurityMaterial` for the combination.
public struct LLCSSec<Direction: LLControlDirection>: LLControlBody {
    public static var opcode: LLControlOpcode { Direction.securityOpcode }

    /// The central's halves in the request, the peripheral's in the response.
    public var halves: CSSecurityHalves

    public init(_ halves: CSSecurityHalves) { self.halves = halves }

    public func encodeBody(into w: inout ByteWriter) { halves.encode(into: &w) }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSSec {
        LLCSSec(try CSSecurityHalves.decode(from: &r))
    }
}

/// LL_CS_SEC_REQ: the central's CS_IV_C, CS_IN_C and CS_PV_C.
public typealias LLCSSecReq = LLCSSec<LLRequest>
/// LL_CS_SEC_RSP: the peripheral's CS_IV_P, CS_IN_P and CS_PV_P.
public typealias LLCSSecRsp = LLCSSec<LLResponse>
