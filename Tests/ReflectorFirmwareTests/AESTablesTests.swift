import Testing
@testable import ReflectorFirmware

/// The AES tables are constants (kept in an image's flash); they must be what the GF(2^8)
/// construction of FIPS-197 §5.1.1 gives.
struct AESTablesTests {
    @Test func sboxIsTheConstruction() {
        #expect((0..<256).map { AESTables.sbox[$0] } == AESTables.makeSBox())
    }

    @Test func te0IsTheConstruction() {
        #expect((0..<256).map { AESTables.te0[$0] } == AESTables.makeTe0(AESTables.makeSBox()))
    }
}
