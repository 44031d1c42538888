import Testing
@testable import ReflectorFirmware
import TestSupport

/// LL_CS_SEC_REQ + LL_CS_SEC_RSP → CS_IV, CS_IN, CS_PV → h9, with the spec's sample data
/// (Core 6.0 Vol 6 Part C §7 as NimBLE's and TI's DRBG tests quote it; reference §3.8).
///
/// The central's halves are the least significant 64/32/64 bits, the peripheral's the most
/// significant; each travels little-endian. Worked by hand:
/// CS_IV = E10BC28A0BFDDFE9 ‖ 3E7F5186E0CA0B3B → CS_IV_P on air E9 DF FD 0B 8A C2 0B E1,
/// CS_IV_C on air 3B 0B CA E0 86 51 7F 3E (the octets Telink's debug code puts in its PDUs);
/// CS_IN = 9FF477C1 ‖ 8673840D → C1 77 F4 9F and 0D 84 73 86;
/// CS_PV = C980DEDF9882ED44 ‖ 64A674967868F143 → 44 ED 82 98 DF DE 80 C9 and 43 F1 68 78 96 74 A6 64.
struct LLSecurityMaterialTests {
    static let reqHex = "39 3B0BCAE086517F3E 0D847386 43F168789674A664"
    static let rspHex = "2D E9DFFD0B8AC20BE1 C177F49F 44ED8298DFDE80C9"

    @Test func halvesFromTheAirCombineToTheSpecSample() throws {
        let req = try LLCSSecReq.decode(Hex.bytes(Self.reqHex))
        let rsp = try LLCSSecRsp.decode(Hex.bytes(Self.rspHex))
        let m = CSSecurityMaterial(request: req, response: rsp)
        #expect(m.iv == Hex.block("E10BC28A0BFDDFE93E7F5186E0CA0B3B"))
        #expect(m.instantiationNonce == 0x9FF4_77C1_8673_840D)
        #expect(m.personalization == Hex.block("C980DEDF9882ED4464A674967868F143"))

        let drbg = m.makeDRBG()
        #expect(drbg.key == Hex.block("EEE04D7C76113A5CEC992AE320C24D27"))
        #expect(drbg.nonce == Hex.block("DF905647C1066E6F52C03EDFB82B6928"))

        let direct = CSDRBG(iv: m.iv, instantiationNonce: m.instantiationNonce, personalization: m.personalization)
        #expect(direct.key == drbg.key)
    }

    @Test func splittingGivesThePDUsBack() {
        let m = CSSecurityMaterial(
            iv: Hex.block("E10BC28A0BFDDFE93E7F5186E0CA0B3B"), instantiationNonce: 0x9FF4_77C1_8673_840D,
            personalization: Hex.block("C980DEDF9882ED4464A674967868F143"))
        #expect(m.request.encode() == Hex.bytes(Self.reqHex))
        #expect(m.response.encode() == Hex.bytes(Self.rspHex))
        #expect(CSSecurityMaterial(request: m.request, response: m.response) == m)
    }

    /// Swapping the halves (central most significant) must not reproduce the sample key.
    @Test func orderMatters() throws {
        let req = try LLCSSecReq.decode(Hex.bytes(Self.reqHex))
        let rsp = try LLCSSecRsp.decode(Hex.bytes(Self.rspHex))
        let swapped = CSSecurityMaterial(
            request: LLCSSecReq(rsp.halves),
            response: LLCSSecRsp(req.halves))
        #expect(swapped.makeDRBG().key != Hex.block("EEE04D7C76113A5CEC992AE320C24D27"))
    }

    @Test func truncationsAndTrailing() {
        for hex in [Self.reqHex, Self.rspHex] {
            let b = Hex.bytes(hex)
            #expect(b.count == 21)
            DecoderChecks.everyTruncationIsTruncated(b) { x throws(DecodeError) in try LLControlPDU.decode(x) }
            DecoderChecks.extraOctetIsTrailing(b) { x throws(DecodeError) in try LLControlPDU.decode(x) }
        }
    }
}
