import EmulatorMath
@testable import ReflectorFirmware
import Testing
import TestSupport

/// The capabilities block: exact HCI v1 (28), v2 (31) and v2 + PHY-specific RTT (34) octets,
/// the 25-octet LL_CS_CAPABILITIES body, round trips, and decoders that never trap.
struct CSCapabilitiesTests {
    /// Every field distinct so a misplaced field shows up.
    static let sample = CSCapabilities(
        numConfigSupported: 4, maxConsecutiveProcedures: 0x0102,
        numAntennas: 2, maxAntennaPaths: 4,
        roles: [.initiator, .reflector], optionalModes: [.mode3],
        rttPrecision: [.accessAddressOnly10ns, .randomSequence10ns],
        rttAccessAddressOnlyN: 0x0A, rttSoundingN: 0x0B, rttRandomSequenceN: 0x0C,
        nadmSounding: [.phaseBased], nadmRandomSequence: [.phaseBased],
        syncPHYs: [.le2M, .le2M2BT],
        subfeatures: [.noTransmitterFAE, .channelSelection3c, .phaseBasedRangingFromSoundingSequence, .inlinePCTReflector],
        tIP1Times: TimeSet(.tIP1, microseconds: [10, 30, 80])!,
        tIP2Times: TimeSet(.tIP2, microseconds: [20, 40, 60])!,
        tFCSTimes: TimeSet(.tFCS, microseconds: [15, 100, 120])!,
        tPMTimes: TimeSet(.tPM, microseconds: [10, 20])!,
        tSW: .us4, txSNR: [.snr18dB, .snr21dB, .snr24dB, .snr27dB, .snr30dB],
        tIP2IPTTimes: TimeSet(.tIP2, bits: 0x007E), tSWIPT: .us10,
        rtt2MAccessAddressOnlyN: 7, rtt2MSoundingN: 8, rtt2MRandomSequenceN: 9
    )

    // Worked by hand from the field order of Core 6.0 Vol 4 Part E §7.8.130 (Zephyr
    // bt_hci_rp_le_read_local_supported_capabilities): Num_Config 04 | Max_Consecutive 0102
    // LE | Num_Ant 02 | Max_Paths 04 | Roles 03 | Modes 01 | RTT_Cap 05 | N 0A 0B 0C |
    // NADM 0001 0001 | PHYs 06 | Subfeatures 001E | T_IP1 {10,30,80}=0x0045 | T_IP2
    // {20,40,60}=0x002A | T_FCS {15,100,120}=0x0181 | T_PM {10,20}=0x0003 | T_SW 04 | SNR 1F.
    static let v1Hex = "04 0201 02 04 03 01 05 0A0B0C 0100 0100 06 1E00 4500 2A00 8101 0300 04 1F"
    // + T_IP2_IPT 0x007E | T_SW_IPT 0A
    static let v2Hex = v1Hex + " 7E00 0A"
    // + RTT_2M_AA_Only_N 07 | RTT_2M_Sounding_N 08 | RTT_2M_Random_Sequence_N 09
    static let v2RTTHex = v2Hex + " 070809"
    // LL body (NimBLE ble_ll_cs_capabilities_pdu_make): Modes 01 | RTT 05 | N 0A0B0C | NADM
    // 0100 0100 | PHYs 06 | ant 2 | paths 4<<4 = 42 | roles 03 | (subfeatures bits 1-3 << 2)
    // = 38 → 3B | configs 04 | procedures 0201 | T_SW 04 | T_IP1 4500 | T_IP2 2A00 | T_FCS 8101
    // | T_PM 0300 | SNR 1F<<1 = 3E
    /// The same body with this project's Core 6.3 IPT extension [U].
    static let llIPTHex = "01 05 0A0B0C 0100 0100 06 42 7B 04 0201 04 4500 2A00 8101 0300 3E 7E00 0A"
    static let llHex = "01 05 0A0B0C 0100 0100 06 42 3B 04 0201 04 4500 2A00 8101 0300 3E"

    @Test func v1ExactBytes() throws {
        let bytes = Self.sample.hciBytes(layout: .v1)
        #expect(bytes.count == 28)
        #expect(bytes == Hex.bytes(Self.v1Hex))
    }

    @Test func v2ExactBytes() {
        let bytes = Self.sample.hciBytes(layout: .v2)
        #expect(bytes.count == 31)
        #expect(bytes == Hex.bytes(Self.v2Hex))
    }

    @Test func v2WithPHYSpecificRTTExactBytes() {
        let bytes = Self.sample.hciBytes(layout: .v2WithPHYSpecificRTT)
        #expect(bytes.count == 34)
        #expect(bytes == Hex.bytes(Self.v2RTTHex))
    }

    @Test func llBodyExactBytes() {
        // The sample supports inline PCT: octet 11 gains bit 6 and the 3-octet IPT extension follows.
        let bytes = Self.sample.llBody
        #expect(bytes.count == CSCapabilities.llExtendedBodyLength)
        #expect(bytes == Hex.bytes(Self.llIPTHex))
        // Without any IPT field the body is the 25-octet Core 6.0 form.
        var old = Self.sample
        old.subfeatures.remove(.inlinePCTReflector)
        old.tIP2IPTTimes = .mandatory(.tIP2)
        old.tSWIPT = .none
        #expect(old.llBody == Hex.bytes(Self.llHex))
    }

    @Test func decodeFieldsFromHandWrittenV1() throws {
        let c = try CSCapabilities(hci: Hex.bytes(Self.v1Hex))
        #expect(c.numConfigSupported == 4)
        #expect(c.maxConsecutiveProcedures == 0x0102)
        #expect(c.numAntennas == 2 && c.maxAntennaPaths == 4)
        #expect(c.supports(CSRole.initiator) && c.supports(CSRole.reflector))
        #expect(c.supports(CSMode.mode3) && c.supports(CSMode.mode1))
        #expect(c.rttPrecision == [.accessAddressOnly10ns, .randomSequence10ns])
        #expect(c.rttN(for: .sounding96) == 0x0B && c.rttN(for: .random64) == 0x0C)
        #expect(c.supports(CSSyncPHY.le2M) && c.supports(CSSyncPHY.le2M2BT) && c.supports(CSSyncPHY.le1M))
        #expect(c.supportsInlinePCT)
        #expect(c.tIP1Times.microseconds == [10, 30, 80, 145])
        #expect(c.tIP2Times.microseconds == [20, 40, 60, 145])
        #expect(c.tFCSTimes.microseconds == [15, 100, 120, 150])
        #expect(c.tPMTimes.microseconds == [10, 20, 40])
        #expect(c.tSW == .us4)
        #expect(c.txSNR.supports(index: 4))
        // Fields v1 cannot carry take their defaults.
        #expect(c.tIP2IPTTimes == .mandatory(.tIP2))
        #expect(c.tSWIPT == .none)
        #expect(c.rtt2MSoundingN == 0)
    }

    @Test func roundTripEveryHCILayout() throws {
        for layout in CapabilitiesLayout.allCases {
            let bytes = Self.sample.hciBytes(layout: layout)
            #expect(bytes.count == layout.byteCount)
            let strict = try CSCapabilities(hci: bytes, layout: layout)
            let auto = try CSCapabilities(hci: bytes)
            #expect(strict == auto)
            #expect(strict.hciBytes(layout: layout) == bytes)
            var expected = Self.sample
            if layout == .v1 {
                expected.tIP2IPTTimes = .mandatory(.tIP2)
                expected.tSWIPT = .none
            }
            if layout != .v2WithPHYSpecificRTT {
                expected.rtt2MAccessAddressOnlyN = 0
                expected.rtt2MSoundingN = 0
                expected.rtt2MRandomSequenceN = 0
            }
            #expect(strict == expected)
        }
        #expect(try CSCapabilities(hci: Self.sample.hciBytes(layout: .v2WithPHYSpecificRTT)) == Self.sample)
    }

    @Test func projectReflectorRoundTrips() throws {
        for n in 1...4 {
            let c = CSCapabilities.projectReflector(antennas: n)
            #expect(try CSCapabilities(hci: c.hciBytes(layout: .v2WithPHYSpecificRTT)) == c)
        }
    }

    @Test func roundTripLL() throws {
        let c = try CSCapabilities(llBody: Self.sample.llBody)
        #expect(c.llBody == Self.sample.llBody)
        // The LL body carries the IPT fields (project extension) but not the 2M RTT N values.
        var expected = Self.sample
        expected.rtt2MAccessAddressOnlyN = 0
        expected.rtt2MSoundingN = 0
        expected.rtt2MRandomSequenceN = 0
        #expect(c == expected)
    }

    @Test func reservedBitsArePreservedInHCI() throws {
        var bytes = Hex.bytes(Self.v1Hex)
        bytes[5] |= 0xF0   // Roles RFU
        bytes[19] = 0xFF   // T_IP1 high octet RFU
        let c = try CSCapabilities(hci: bytes)
        #expect(c.hciBytes(layout: .v1) == bytes)
        #expect(c.tIP1Times.hasReservedBits)
        #expect(c.tIP1Times.microseconds == [10, 30, 80, 145])
    }

    @Test func invalidValuesAreRejected() {
        func mutated(_ i: Int, _ v: UInt8) -> [UInt8] {
            var b = Hex.bytes(Self.v2Hex)
            b[i] = v
            return b
        }
        #expect(throws: DecodeError.invalidValue(field: "Num_Config_Supported", value: 0)) { try CSCapabilities(hci: mutated(0, 0)) }
        #expect(throws: DecodeError.invalidValue(field: "Num_Config_Supported", value: 5)) { try CSCapabilities(hci: mutated(0, 5)) }
        #expect(throws: DecodeError.invalidValue(field: "Num_Antennas_Supported", value: 0)) { try CSCapabilities(hci: mutated(3, 0)) }
        #expect(throws: DecodeError.invalidValue(field: "Max_Antenna_Paths_Supported", value: 5)) { try CSCapabilities(hci: mutated(4, 5)) }
        #expect(throws: DecodeError.invalidValue(field: "T_SW_Time_Supported", value: 3)) { try CSCapabilities(hci: mutated(26, 3)) }
        #expect(throws: DecodeError.invalidValue(field: "T_SW_IPT_Time_Supported", value: 5)) { try CSCapabilities(hci: mutated(30, 5)) }
    }

    @Test func everyTruncationThrows() {
        for layout in CapabilitiesLayout.allCases {
            let bytes = Self.sample.hciBytes(layout: layout)
            for n in 0..<bytes.count {
                #expect(throws: DecodeError.self) { try CSCapabilities(hci: bytes.prefix(n), layout: layout) }
                if CapabilitiesLayout(byteCount: n) == nil {
                    #expect(throws: DecodeError.self) { try CSCapabilities(hci: bytes.prefix(n)) }
                }
            }
        }
        let ll = Self.sample.llBody
        // A 25-octet prefix is a whole Core 6.0 body; every other prefix is short.
        for n in 0..<ll.count where n != CSCapabilities.llBodyLength {
            #expect(throws: DecodeError.self) { try CSCapabilities(llBody: ll.prefix(n)) }
        }
    }

    @Test func oversizedInputThrows() {
        for layout in CapabilitiesLayout.allCases {
            let bytes = Self.sample.hciBytes(layout: layout) + [0x00]
            #expect(throws: DecodeError.trailingBytes(extra: 1)) { try CSCapabilities(hci: bytes, layout: layout) }
        }
        #expect(throws: DecodeError.trailingBytes(extra: 1)) { try CSCapabilities(hci: Self.sample.hciBytes(layout: .v2WithPHYSpecificRTT) + [0]) }
        #expect(throws: DecodeError.trailingBytes(extra: 1)) { try CSCapabilities(llBody: Self.sample.llBody + [0]) }
        #expect(throws: DecodeError.truncated(field: "T_IP2_IPT_Times_Supported", needed: 2)) { try CSCapabilities(hci: [UInt8](repeating: 1, count: 29)) }
    }

    /// Seeded garbage of every length 0...40; half the inputs get valid values patched into the
    /// checked fields so the success path is exercised too. Whatever decodes re-encodes exactly.
    @Test func randomGarbageNeverTraps() {
        var rng = SplitMix64(seed: 0x5EED_CAFE)
        var decodedHCI = 0, decodedLL = 0
        for _ in 0..<4000 {
            let n = rng.below(41)
            var b = rng.bytes(n)
            if rng.below(2) == 0 {
                let sw: [UInt8] = [0, 1, 2, 4, 10]
                if n > 0 { b[0] = UInt8(1 + rng.below(4)) }
                if n > 3 { b[3] = UInt8(1 + rng.below(4)) }
                if n > 4 { b[4] = UInt8(1 + rng.below(4)) }
                if n > 26 { b[26] = sw[rng.below(5)] }
                if n > 30 { b[30] = sw[rng.below(5)] }
            }
            if let c = try? CSCapabilities(hci: b), let layout = CapabilitiesLayout(byteCount: n) {
                decodedHCI += 1
                #expect(c.hciBytes(layout: layout) == b)
            }
            if n == 25, rng.below(2) == 0 {
                b[10] = UInt8(1 + rng.below(4)) | UInt8(1 + rng.below(4)) << 4
                b[12] = UInt8(1 + rng.below(4))
                b[15] = [0, 1, 2, 4, 10][rng.below(5)]
            }
            if let c = try? CSCapabilities(llBody: b) {
                decodedLL += 1
                #expect((try? CSCapabilities(llBody: c.llBody)) == c)
            }
        }
        #expect(decodedHCI > 0)
        #expect(decodedLL > 0)
    }
}
