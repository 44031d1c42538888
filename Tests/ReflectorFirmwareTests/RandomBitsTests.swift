import Testing
@testable import ReflectorFirmware
import TestSupport

/// Bit consumption from the DRBG: the sample marker draws and the leftover-bit policies.
struct RandomBitsTests {
    static func bits(_ policy: LeftoverBitPolicy = .regeneratePerStep) -> CSRandomBits<AES128> {
        CSRandomBits(drbg: CSDRBG(iv: CryptoTests.iv, instantiationNonce: CryptoTests.inNonce, personalization: CryptoTests.pv), policy: policy)
    }

    /// NimBLE's marker sample at step 9: positions 12 then 4 (hr1(29), TID 6), signal bits 0 then 1 (TID 7).
    @Test func markerSamplesAtStep9() {
        var b = Self.bits()
        b.setStep(9)
        #expect(b.hr1(29, .soundingMarkerPosition) == 12)
        #expect(b.hr1(29, .soundingMarkerPosition) == 4)
        #expect(b.bits(1, .soundingMarkerSignal) == 0)
        #expect(b.bits(1, .soundingMarkerSignal) == 1)
    }

    /// Octets leave a block most significant first; a second block in one step uses transaction counter 1.
    @Test func octetOrderAndTransactionCounter() {
        var b = Self.bits()
        let block0 = Hex.bytes("79741FD18F577B45D09A665A7F1F2858")
        let block1 = Hex.bytes("D1C1D05A40B4C481EFBB39B261D29C4E")
        let drawn = (0..<20).map { _ in b.octet(.channelSelection) }
        #expect(drawn == Array(block0 + block1.prefix(4)))
        #expect(b.drbg.blocksGenerated == 2)
    }

    /// The policies differ only in whether a later step starts from a step's leftover bits.
    @Test func leftoverPolicies() {
        var fresh = Self.bits(.regeneratePerStep)
        var kept = Self.bits(.keepWithinSubevent)
        _ = fresh.octet(.channelSelection)
        _ = kept.octet(.channelSelection)
        fresh.setStep(1)
        kept.setStep(1)
        var reference = Self.bits()
        reference.setStep(1)
        #expect(fresh.octet(.channelSelection) == reference.octet(.channelSelection))
        #expect(kept.octet(.channelSelection) == 0x74)  // the second octet of step 0's block
        kept.startSubevent()
        kept.setStep(2)
        var again = Self.bits()
        again.setStep(2)
        #expect(kept.octet(.channelSelection) == again.octet(.channelSelection))
        var procedure = Self.bits(.keepWithinProcedure)
        _ = procedure.octet(.channelSelection)
        procedure.startSubevent()
        procedure.setStep(1)
        #expect(procedure.octet(.channelSelection) == 0x74)
    }
}
