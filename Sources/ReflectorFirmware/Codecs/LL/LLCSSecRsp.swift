import WireFormat

/// LL_CS_SEC_RSP (opcode 0x2D, 20 octets of CtrData; Core 6.0 Vol 6 Part B §2.4.2.43, best
/// knowledge): the peripheral's answer to LL_CS_SEC_REQ with its half of the CS security
/// material. After it both sides instantiate the CS DRBG (h9) from the combined values.
///
/// Layout: `CS_IV_P 8 | CS_IN_P 4 | CS_PV_P 8`, each little-endian (NimBLE PR #1765
/// `ble_ll_cs_rx_security_req` copies the high octets of its little-endian arrays;
/// `CSSecurityHalves`). The peripheral's halves are the *most* significant halves; see
/// `CSSecurityMaterial`.
public struct LLCSSecRsp: LLControlBody {
    public static let opcode = LLControlOpcode.csSecRsp

    /// CS_IV_P, CS_IN_P and CS_PV_P.
    public var peripheral: CSSecurityHalves

    public init(_ peripheral: CSSecurityHalves) { self.peripheral = peripheral }

    public func encodeBody(into w: inout ByteWriter) { peripheral.encode(into: &w) }

    public static func decodeBody(_ r: inout ByteReader) throws(DecodeError) -> LLCSSecRsp {
        LLCSSecRsp(try CSSecurityHalves.decode(from: &r))
    }
}
