import Testing
@testable import AnchorFirmware

/// CRC-16 ITU-T as IEEE 802.15.4 uses it.
struct FrameCheckSequenceTests {
    @Test func knownVectors() {
        // The CRC-16/KERMIT check value.
        #expect(FrameCheckSequence.crc16(Array("123456789".utf8)) == 0x2189)
        // 802.15.4's worked example: the acknowledgement frame 0100 0000 0000 0000 0101 0110 (bits in
        // transmission order = octets 02 00 6A) has FCS 0010 0111 1001 1110 = 0x79E4.
        #expect(FrameCheckSequence.crc16([0x02, 0x00, 0x6A]) == 0x79E4)
        var frame: [UInt8] = [0x02, 0x00, 0x6A]
        FrameCheckSequence.append(to: &frame)
        #expect(frame == [0x02, 0x00, 0x6A, 0xE4, 0x79])
    }
}
