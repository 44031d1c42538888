import Testing
@testable import ReflectorFirmware

/// Step durations (reference §5.2–5.3) against hand-worked numbers.
struct StepDurationTests {
    @Test func syncDurations() {
        #expect(CSTiming.syncDuration(phy: .le1M, rttType: .accessAddressOnly) == 44)
        #expect(CSTiming.syncDuration(phy: .le1M, rttType: .sounding32) == 76)          // 44 + 32
        #expect(CSTiming.syncDuration(phy: .le1M, rttType: .random128) == 172)          // 44 + 128
        #expect(CSTiming.syncDuration(phy: .le2M, rttType: .accessAddressOnly) == 26)
        #expect(CSTiming.syncDuration(phy: .le2M, rttType: .sounding96) == 74)          // 26 + 96/2
        #expect(CSTiming.syncDuration(phy: .le2M, rttType: .random64) == 58)            // 26 + 64/2
        #expect(CSTiming.syncDuration(phy: .le2M2BT, rttType: .random128) == 90)        // 26 + 128/2
        #expect(CSTiming.syncDurationHalfMicroseconds(phy: .le2M, rttType: .sounding32) == 84)
    }

    @Test func fixedTimes() {
        #expect(CSTiming.rampDown == 5)
        #expect(CSTiming.guardTime == 10)
        #expect(CSTiming.frequencyMeasurement == 80)
    }

    @Test func mode0MandatoryTimes() {
        // 2(44+5) + 145 + 10 + 80 + 150
        let t = CSTiming()
        #expect(t.stepDuration(mode: .mode0, antennaPaths: 1, phy: .le1M, rttType: .accessAddressOnly) == 483)
        // Mode 0 carries no RTT sequence, whatever the configuration's RTT type.
        #expect(t.stepDuration(mode: .mode0, antennaPaths: 4, phy: .le1M, rttType: .random128) == 483)
        // 2M: 2(26+5) + 145 + 10 + 80 + 150
        #expect(t.stepDuration(mode: .mode0, antennaPaths: 1, phy: .le2M, rttType: .accessAddressOnly) == 447)
    }

    @Test func mode2FourPaths() {
        // 2[(10+40)·5 + 5] + 145 + 150
        let t = CSTiming(tIP1: 145, tIP2: 145, tFCS: 150, tPM: 40, tSW: 10)
        #expect(t.stepDuration(mode: .mode2, antennaPaths: 4, phy: .le1M, rttType: .accessAddressOnly) == 805)
    }

    @Test func mode2NordicIPTTimes() {
        // Nordic IPT sample: T_IP2 20, T_FCS 60, T_PM 10, ACI 0 → 2[(0+10)·2 + 5] + 20 + 60
        let t = CSTiming(tIP1: 30, tIP2: 20, tFCS: 60, tPM: 10, tSW: 0)
        #expect(t.stepDuration(mode: .mode2, antennaPaths: 1, phy: .le1M, rttType: .accessAddressOnly) == 130)
    }

    @Test func mode1WithSequences() {
        // 2M, 96-bit sounding: T_SY 74; 2(74+5) + 30 + 60
        let t = CSTiming(tIP1: 30, tIP2: 20, tFCS: 60, tPM: 10, tSW: 0)
        #expect(t.stepDuration(mode: .mode1, antennaPaths: 1, phy: .le2M, rttType: .sounding96) == 248)
        // 1M, 128-bit random, mandatory times: 2(172+5) + 145 + 150
        #expect(CSTiming().stepDuration(mode: .mode1, antennaPaths: 1, phy: .le1M, rttType: .random128) == 649)
    }

    @Test func mode3WithSequences() {
        // 2M, 32-bit sounding, N_AP 2, T_PM 20, T_SW 2, T_IP2 40, T_FCS 100:
        // 2[42 + 10 + (2+20)·3 + 5] + 40 + 100
        let t = CSTiming(tIP1: 145, tIP2: 40, tFCS: 100, tPM: 20, tSW: 2)
        #expect(t.stepDuration(mode: .mode3, antennaPaths: 2, phy: .le2M, rttType: .sounding32) == 386)
        // 1M, AA only, mandatory times, N_AP 1: 2[44 + 10 + 40·2 + 5] + 145 + 150
        #expect(CSTiming().stepDuration(mode: .mode3, antennaPaths: 1, phy: .le1M, rttType: .accessAddressOnly) == 573)
    }

    @Test func antennaPathsAreClamped() {
        let t = CSTiming(tSW: 10)
        let one = t.stepDuration(mode: .mode2, antennaPaths: 1, phy: .le1M, rttType: .accessAddressOnly)
        let four = t.stepDuration(mode: .mode2, antennaPaths: 4, phy: .le1M, rttType: .accessAddressOnly)
        #expect(t.stepDuration(mode: .mode2, antennaPaths: 0, phy: .le1M, rttType: .accessAddressOnly) == one)
        #expect(t.stepDuration(mode: .mode2, antennaPaths: -3, phy: .le1M, rttType: .accessAddressOnly) == one)
        #expect(t.stepDuration(mode: .mode2, antennaPaths: 99, phy: .le1M, rttType: .accessAddressOnly) == four)
    }

    @Test func mode1IgnoresAntennaPaths() {
        let t = CSTiming(tSW: 10)
        #expect(t.stepDuration(mode: .mode1, antennaPaths: 1, phy: .le1M, rttType: .sounding32)
            == t.stepDuration(mode: .mode1, antennaPaths: 4, phy: .le1M, rttType: .sounding32))
    }
}
