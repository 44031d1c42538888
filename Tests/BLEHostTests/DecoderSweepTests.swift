import BLEHost
import TestSupport
import Testing
import WireFormat

/// `DecoderChecks` over the host's codecs of fixed layout: every proper prefix of a valid PDU
/// is `.truncated`, one octet more is `.trailingBytes`, and random or mutated octets never trap.
@Suite struct DecoderSweepTests {
    /// The ATT PDUs whose length their opcode fixes (the others end in a value of any length).
    static let fixedATT: [ATTPDU] = [
        .errorResponse(requestOpcode: 0x0A, handle: 0x0003, error: .insufficientEncryption),
        .exchangeMTURequest(clientMTU: 247), .exchangeMTUResponse(serverMTU: 517),
        .findInformationRequest(start: 1, end: 0xFFFF), .readRequest(handle: 0x21), .readBlobRequest(handle: 0x21, offset: 22),
        .writeResponse, .confirmation,
    ]

    @Test(arguments: fixedATT) func attPDU(_ pdu: ATTPDU) {
        DecoderChecks.everyTruncationIsTruncated(pdu.encode()) { bytes throws(DecodeError) in try ATTPDU.decode(bytes) }
        DecoderChecks.extraOctetIsTrailing(pdu.encode()) { bytes throws(DecodeError) in try ATTPDU.decode(bytes) }
    }

    /// Every SMP PDU: its code fixes its length.
    @Test func smpPDUs() {
        for (pdu, _, _) in SMPPDUBumbleTests.cases {
            DecoderChecks.everyTruncationIsTruncated(pdu.encode()) { bytes throws(DecodeError) in try SMPPDU.decode(bytes) }
            DecoderChecks.extraOctetIsTrailing(pdu.encode()) { bytes throws(DecodeError) in try SMPPDU.decode(bytes) }
        }
    }

    /// The L2CAP basic frame: its header declares the payload's length.
    @Test func l2capFrame() throws {
        let frame = try #require(L2CAPFrame(channel: L2CAPFrame.attributeProtocol, payload: [0x02, 0xF7, 0x00]).encode())
        DecoderChecks.everyTruncationIsTruncated(frame) { bytes throws(DecodeError) in try L2CAPFrame.decode(bytes) }
        DecoderChecks.extraOctetIsTrailing(frame) { bytes throws(DecodeError) in try L2CAPFrame.decode(bytes) }
    }

    @Test func randomOctetsNeverTrap() throws {
        DecoderChecks.fuzz(seed: 0xB1E_0001, valid: ATTPDU.readBlobRequest(handle: 0x21, offset: 22).encode()) { bytes throws(DecodeError) in try ATTPDU.decode(bytes) }
        DecoderChecks.fuzz(seed: 0xB1E_0002, valid: SMPPDU.pairingFailed(.dhKeyCheckFailed).encode()) { bytes throws(DecodeError) in try SMPPDU.decode(bytes) }
        let frame = try #require(L2CAPFrame(channel: 4, payload: [1, 2, 3]).encode())
        DecoderChecks.fuzz(seed: 0xB1E_0003, valid: frame) { bytes throws(DecodeError) in try L2CAPFrame.decode(bytes) }
    }
}
