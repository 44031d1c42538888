import Testing
@testable import MCUboot

struct CRC16Tests {
    /// The CRC catalogue's check value for CRC-16/XMODEM over "123456789".
    @Test func checkValue() {
        #expect(CRC16.xmodem(Array("123456789".utf8)) == 0x31C3)
        #expect(CRC16.xmodem([UInt8]()) == 0)
    }
}
