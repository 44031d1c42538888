import ReflectorFirmware
import Testing
@testable import HCITransport

struct HCIPacketIndicatorTests {
    @Test func values() {
        #expect(HCIPacketIndicator.allCases.map(\.rawValue) == [1, 2, 3, 4, 5])
    }
}
