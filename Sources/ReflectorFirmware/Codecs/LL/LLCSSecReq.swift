import WireFormat

/// LL_CS_SEC_REQ (opcode 0x39, 20 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.42, best
/// knowledge of the section number): the central's half of the CS security material, sent to
/// start the Channel Sounding Security Start procedure once the link is encrypted.
///
/// Layout: `CS_IV_C 8 | CS_IN_C 4 | CS_PV_C 8`, each field little-endian (least significant
/// octet first), as NimBLE PR #1765 (`ble_ll_cs_security_req_make`: the central's halves are
/// the low octets of its little-endian `iv`/`in`/`pv` arrays) and Telink's debug vectors lay it
/// out. The central's halves are the *least* significant halves of CS_IV, CS_IN and CS_PV; see
/// `CSSecurityMaterial` for the combination.
public struct LLCSSecReq: Sendable, Equatable {
    public static let opcode = LLControlOpcode.csSecReq

    /// CS_IV_C, the central's 64 bits of the initialization vector.
    public var ivC: UInt64
    /// CS_IN_C, the central's 32 bits of the instantiation nonce.
    public var inC: UInt32
    /// CS_PV_C, the central's 64 bits of the personalization vector.
    public var pvC: UInt64

    public init(ivC: UInt64, inC: UInt32, pvC: UInt64) {
        self.ivC = ivC
        self.inC = inC
        self.pvC = pvC
    }

    public func encodeBody(into w: inout ByteWriter) {
        w.uint(ivC, 8)
        w.u32(inC)
        w.uint(pvC, 8)
    }

    static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSSecReq {
        let iv = try r.uint(8, "CS_IV_C")
        let nonce = try r.u32("CS_IN_C")
        let pv = try r.uint(8, "CS_PV_C")
        return LLCSSecReq(ivC: iv, inC: nonce, pvC: pv)
    }
}

extension LLCSSecReq {
    /// `Opcode | CtrData` (see `LLControlPDU.encode()`).
    public func encode() -> [UInt8] { LLControlPDU.csSecReq(self).encode() }

    /// Decodes `Opcode | CtrData`; `.unexpectedCode` for another opcode.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> LLCSSecReq {
        guard case let .csSecReq(p) = try LLControlPDU.payload(bytes, expecting: opcode) else {
            throw .unexpectedCode(expected: Int(opcode.rawValue), found: -1)
        }
        return p
    }
}
