/// The CS DRBG inputs of one connection, combined from LL_CS_SEC_REQ and LL_CS_SEC_RSP
/// (Core 6.0 Vol 6 Part B §2.4.2.42/§2.4.2.43 and the Security Start procedure; Vol 6 Part E
/// §3 for h9):
///
/// ```
/// CS_IV = CS_IV_P ‖ CS_IV_C    (128 bits)
/// CS_IN = CS_IN_P ‖ CS_IN_C    (64 bits)
/// CS_PV = CS_PV_P ‖ CS_PV_C    (128 bits)
/// ```
///
/// The peripheral's half is the most significant. Byte order, stated explicitly: each half
/// travels little-endian in its PDU, so the first octet of CS_IV_C on the air is the least
/// significant octet of CS_IV, and the last octet of CS_IV_P on the air is its most significant
/// octet. This is NimBLE PR #1765's handling (`ble_ll_cs_rx_security_req/rsp` store the central's
/// octets at `iv[0..7]` and the peripheral's at `iv[8..15]` of little-endian arrays that
/// `ble_ll_cs_drbg_h9` uses as CS_IV), and Telink's debug vectors put the spec sample CS_IV
/// E10BC28A0BFDDFE93E7F5186E0CA0B3B on the air as CS_IV_C = 3B 0B CA E0 86 51 7F 3E and
/// CS_IV_P = E9 DF FD 0B 8A C2 0B E1. `Block128` and `CSDRBG` take the values MSO first, the
/// way the spec's sample data writes them.
public struct CSSecurityMaterial: Sendable, Equatable {
    /// CS_IV, most significant octet first.
    public var iv: Block128
    /// CS_IN.
    public var instantiationNonce: UInt64
    /// CS_PV, most significant octet first.
    public var personalization: Block128

    public init(iv: Block128, instantiationNonce: UInt64, personalization: Block128) {
        (self.iv, self.instantiationNonce, self.personalization) = (iv, instantiationNonce, personalization)
    }

    /// Combines the central's request and the peripheral's response.
    public init(request: LLCSSecReq, response: LLCSSecRsp) {
        self.init(central: request.halves, peripheral: response.halves)
    }

    /// Combines the central's halves (least significant) and the peripheral's (most significant).
    public init(central c: CSSecurityHalves, peripheral p: CSSecurityHalves) {
        iv = Block128(high: p.iv, low: c.iv)
        instantiationNonce = UInt64(p.instantiationNonce) << 32 | UInt64(c.instantiationNonce)
        personalization = Block128(high: p.personalization, low: c.personalization)
    }

    /// The central's halves (the least significant ones), as LL_CS_SEC_REQ carries them.
    public var request: LLCSSecReq {
        LLCSSecReq(CSSecurityHalves(iv: iv.low, instantiationNonce: UInt32(truncatingIfNeeded: instantiationNonce),
                                    personalization: personalization.low))
    }

    /// The peripheral's halves (the most significant ones), as LL_CS_SEC_RSP carries them.
    public var response: LLCSSecRsp {
        LLCSSecRsp(CSSecurityHalves(iv: iv.high, instantiationNonce: UInt32(truncatingIfNeeded: instantiationNonce >> 32),
                                    personalization: personalization.high))
    }

    /// h9: the connection's CS DRBG, instantiated from this material, on `cipher`.
    public func makeDRBG<Cipher: BlockCipher>(cipher: Cipher.Type) -> CSDRBG<Cipher> {
        CSDRBG(iv: iv, instantiationNonce: instantiationNonce, personalization: personalization, cipher: cipher)
    }

    /// h9 on the software `AES128`.
    public func makeDRBG() -> CSDRBG<AES128> { makeDRBG(cipher: AES128.self) }
}
