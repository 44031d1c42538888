import WireFormat

/// LL_CS_SEC_RSP (opcode 0x2D, 20 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.43, best
/// knowledge): the peripheral's answer to LL_CS_SEC_REQ with its half of the CS security
/// material. After it both sides instantiate the CS DRBG (h9) from the combined values.
///
/// Layout: `CS_IV_P 8 | CS_IN_P 4 | CS_PV_P 8`, each little-endian (NimBLE PR #1765
/// `ble_ll_cs_rx_security_req` copies the high octets of its little-endian arrays). The
/// peripheral's halves are the *most* significant halves; see `CSSecurityMaterial`.
public struct LLCSSecRsp: Sendable, Equatable {
    public static let opcode = LLControlOpcode.csSecRsp

    /// CS_IV_P, the peripheral's 64 bits of the initialization vector.
    public var ivP: UInt64
    /// CS_IN_P, the peripheral's 32 bits of the instantiation nonce.
    public var inP: UInt32
    /// CS_PV_P, the peripheral's 64 bits of the personalization vector.
    public var pvP: UInt64

    public init(ivP: UInt64, inP: UInt32, pvP: UInt64) {
        self.ivP = ivP
        self.inP = inP
        self.pvP = pvP
    }

    public func encodeBody(into w: inout ByteWriter) {
        w.uint(ivP, 8)
        w.u32(inP)
        w.uint(pvP, 8)
    }

    static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSSecRsp {
        let iv = try r.uint(8, "CS_IV_P")
        let nonce = try r.u32("CS_IN_P")
        let pv = try r.uint(8, "CS_PV_P")
        return LLCSSecRsp(ivP: iv, inP: nonce, pvP: pv)
    }
}

extension LLCSSecRsp {
    /// `Opcode | CtrData` (see `LLControlPDU.encode()`).
    public func encode() -> [UInt8] { LLControlPDU.csSecRsp(self).encode() }

    /// Decodes `Opcode | CtrData`; `.unexpectedCode` for another opcode.
    public static func decode(_ bytes: some Collection<UInt8>) throws(DecodeError) -> LLCSSecRsp {
        guard case let .csSecRsp(p) = try LLControlPDU.payload(bytes, expecting: opcode) else {
            throw .unexpectedCode(expected: Int(opcode.rawValue), found: -1)
        }
        return p
    }
}
