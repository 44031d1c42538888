import Testing
@testable import ReflectorFirmware

/// CS access addresses against the spec sample data (NimBLE ble_ll_cs_drbg_generate_aa_test).
struct AccessAddressTests {
    @Test func sampleAccessAddresses() {
        var bits = CSRandomBits(drbg: CSDRBG(iv: CryptoTests.iv, instantiationNonce: CryptoTests.inNonce, personalization: CryptoTests.pv))
        let expected: [(UInt32, UInt32)] = [(0x6C37_6AB8, 0xF079_BC3A), (0x011C_AE4E, 0xD06A_CDDA), (0x6406_1214, 0x2894_2F38)]
        for (step, e) in expected.enumerated() {
            bits.setStep(UInt16(step))
            let pair = AccessAddressPair.draw(&bits)
            #expect(pair == AccessAddressPair(initiator: e.0, reflector: e.1), "step \(step)")
        }
    }
}
