import EmulatorMath
@testable import ReflectorFirmware
import Testing
import TestSupport

/// The CS LL Control PDUs, LL_REJECT_EXT_IND and LL_UNKNOWN_RSP: exact octets worked by hand
/// from the layouts (NimBLE PR #1765 `ble_ll_cs_*_make` / `ble_ll_cs_rx_*`), round trips,
/// truncations, trailing octets, value checks, and seeded random input that must never trap.
struct LLControlPDUTests {
    static let capabilitiesHex = CSCapabilitiesTests.llHex
    static var capabilities: CSCapabilities { try! CSCapabilities(llBody: Hex.bytes(capabilitiesHex)) }

    /// Config 2: mode 2 with mode-1 sub-mode, 3...6 steps, repetition 1, 2 mode-0 steps,
    /// sender = initiator, 96-bit sounding, 2M, all channels ×3, #3c X jump 4, no IPT,
    /// T_IP1 30 µs (index 2), T_IP2 145 (7), T_FCS 100 (7), T_PM 20 (1).
    static let config2 = CSConfiguration(
        configID: 2, mainMode: .mode2, subMode: .mode1, minMainModeSteps: 3, maxMainModeSteps: 6,
        mainModeRepetition: 1, mode0Steps: 2, role: .initiator, rttType: .sounding96, csSyncPHY: .le2M,
        channelMap: .allowed, channelMapRepetition: 3, channelSelection: .algorithm3c(shape: .x, jump: 4),
        inlinePCT: false, timing: CSTiming(tIP1: 30, tIP2: 145, tFCS: 100, tPM: 20))
    // 30 | 02 | 1<<6 = 42 | map FCFF7FFCFFFFFFFFFF1F | rep 03 | main 02 | sub 01 | min 03 | max 06 |
    // main rep 01 | mode0 02 | PHY 2M bit 02 | RTT 2 | role 0<<4 = 02 | #3c 1 | X 1<<4 = 11 |
    // jump 04 | indices 02 07 07 01 | enhancements 00
    static let config2Hex = "30 42 FCFF7FFCFFFFFFFFFF1F 03 02 01 03 06 01 02 02 02 11 04 02 07 07 01 00"

    /// Config 0: mode 3 without sub-mode, sender = reflector, 128-bit random, 2M 2BT, #3b,
    /// mandatory times, IPT requested.
    static let config0 = CSConfiguration(
        configID: 0, mainMode: .mode3, subMode: nil, minMainModeSteps: 2, maxMainModeSteps: 5,
        mainModeRepetition: 0, mode0Steps: 3, role: .reflector, rttType: .random128, csSyncPHY: .le2M2BT,
        channelMap: .allowed, channelMapRepetition: 1, channelSelection: .algorithm3b, inlinePCT: true)
    // 30 | 0 | 1<<6 = 40 | map | 01 | 03 | FF | 02 | 05 | 00 | 03 | PHY bit 04 | 6 | 1<<4 = 16 | #3b 00 |
    // jump 02 | 07 07 09 02 | 01
    static let config0Hex = "30 40 FCFF7FFCFFFFFFFFFF1F 01 03 FF 02 05 00 03 04 16 00 02 07 07 09 02 01"

    static let csReq = LLCSReq(
        configID: 1, connEventCount: 0x1234, offsetMin: 500, offsetMax: 4000, maxProcedureLength: 0x0140,
        eventInterval: 2, subeventsPerEvent: 3, subeventInterval: 0x0010, subeventLength: 5000,
        procedureInterval: 0x000A, procedureCount: 5, aci: 7, preferredPeerAntenna: 0x03, phy: 2, powerDelta: -3,
        txSNRInitiator: 1, txSNRReflector: 0x0F)
    // 32 | 01 | 3412 | 500 = F40100 | 4000 = A00F00 | 4001 | 0200 | 03 | 1000 | 5000 = 881300 |
    // 0A00 | 0500 | 07 | 03 | 02 | −3 = FD | 1 | F<<4 = F1
    static let csReqHex = "32 01 3412 F40100 A00F00 4001 0200 03 1000 881300 0A00 0500 07 03 02 FD F1"

    static let csRsp = LLCSRsp(
        configID: 1, connEventCount: 0x1236, offsetMin: 600, offsetMax: 3000,
        schedule: LLCSSchedule(eventInterval: 2, subeventsPerEvent: 2, subeventInterval: 0x0010, subeventLength: 4000,
                               aci: 0, phy: 1, powerDelta: -128))
    // 33 | 01 | 3612 | 600 = 580200 | 3000 = B80B00 | 0200 | 02 | 1000 | A00F00 | 00 | 01 | 80 | RFU 00
    static let csRspHex = "33 01 3612 580200 B80B00 0200 02 1000 A00F00 00 01 80 00"

    static let csInd = LLCSInd(
        configID: 1, connEventCount: 0x1238, offset: 600,
        schedule: LLCSSchedule(eventInterval: 2, subeventsPerEvent: 2, subeventInterval: 0x0010, subeventLength: 4000,
                               aci: 0, phy: 1, powerDelta: 0))
    // 34 | 01 | 3812 | 580200 | 0200 | 02 | 1000 | A00F00 | 00 | 01 | 00 | RFU 00
    static let csIndHex = "34 01 3812 580200 0200 02 1000 A00F00 00 01 00 00"

    static var faeTable: FAETable { FAETable((0..<72).map { Int8($0 - 36) })! }
    static var faeHex: String { "37" + Hex.string((0..<72).map { UInt8(bitPattern: Int8($0 - 36)) }, uppercase: true) }

    /// (name, value, expected octets).
    static var cases: [(String, LLControlPDU, String)] {
        [
            ("LL_UNKNOWN_RSP", .unknownRsp(LLUnknownRsp(unknownType: 0x2E)), "07 2E"),
            ("LL_REJECT_EXT_IND", .rejectExtInd(LLRejectExtInd(rejecting: .csConfigReq, errorCode: .unsupportedLMPOrLLParameterValue)), "11 30 20"),
            ("LL_CS_SEC_REQ", .csSecReq(LLCSSecReq(CSSecurityHalves(iv: 0x3E7F_5186_E0CA_0B3B, instantiationNonce: 0x8673_840D, personalization: 0x64A6_7496_7868_F143))),
             "39 3B0BCAE086517F3E 0D847386 43F168789674A664"),
            ("LL_CS_SEC_RSP", .csSecRsp(LLCSSecRsp(CSSecurityHalves(iv: 0xE10B_C28A_0BFD_DFE9, instantiationNonce: 0x9FF4_77C1, personalization: 0xC980_DEDF_9882_ED44))),
             "2D E9DFFD0B8AC20BE1 C177F49F 44ED8298DFDE80C9"),
            ("LL_CS_CAPABILITIES_REQ", .csCapabilitiesReq(LLCSCapabilitiesReq(capabilities: capabilities)), "2E " + capabilitiesHex),
            ("LL_CS_CAPABILITIES_RSP", .csCapabilitiesRsp(LLCSCapabilitiesRsp(capabilities: capabilities)), "2F " + capabilitiesHex),
            ("LL_CS_CONFIG_REQ create #3c", .csConfigReq(LLCSConfigReq.create(config2)!), config2Hex),
            ("LL_CS_CONFIG_REQ create #3b", .csConfigReq(LLCSConfigReq.create(config0)!), config0Hex),
            ("LL_CS_CONFIG_REQ remove", .csConfigReq(LLCSConfigReq.remove(configID: 3)!), "30 03" + String(repeating: "00", count: 26)),
            ("LL_CS_CONFIG_RSP", .csConfigRsp(LLCSConfigRsp(configID: 2)), "31 02"),
            ("LL_CS_REQ", .csReq(csReq), csReqHex),
            ("LL_CS_RSP", .csRsp(csRsp), csRspHex),
            ("LL_CS_IND", .csInd(csInd), csIndHex),
            // 35 | 02 | 0x0102 = 0201 | success 00
            ("LL_CS_TERMINATE_REQ", .csTerminateReq(LLCSTerminateReq(configID: 2, procedureCount: 0x0102)), "35 02 0201 00"),
            // 3A | 02 | 0x0103 = 0301 | Invalid LL Parameters 1E
            ("LL_CS_TERMINATE_RSP", .csTerminateRsp(LLCSTerminateRsp(configID: 2, procedureCount: 0x0103, errorCode: .invalidLMPOrLLParameters)),
             "3A 02 0301 1E"),
            ("LL_CS_FAE_REQ", .csFAEReq(LLCSFAEReq()), "36"),
            ("LL_CS_FAE_RSP", .csFAERsp(LLCSFAERsp(table: faeTable)), faeHex),
            // channels 8...23 = octets 1 and 2; instant 200 = C800
            ("LL_CS_CHANNEL_MAP_IND", .csChannelMapInd(LLCSChannelMapInd(channelMap: ChannelMap(low: 0x00FF_FF00, high: 0), instant: 200)),
             "38 00FFFF00000000000000 C800"),
        ]
    }

    @Test func exactBytesAndRoundTrip() throws {
        for (name, pdu, hex) in Self.cases {
            let bytes = pdu.encode()
            #expect(bytes == Hex.bytes(hex), "\(name)")
            #expect(bytes.count == 1 + pdu.opcode.bodyLength, "\(name)")
            #expect(bytes[0] == pdu.opcode.rawValue, "\(name)")
            #expect(try LLControlPDU.decode(Hex.bytes(hex)) == pdu, "\(name)")
        }
    }

    @Test func everyTruncationAndExtraOctet() {
        for (_, pdu, _) in Self.cases {
            let bytes = pdu.encode()
            DecoderChecks.everyTruncationIsTruncated(bytes) { b throws(DecodeError) in try LLControlPDU.decode(b) }
            DecoderChecks.extraOctetIsTrailing(bytes) { b throws(DecodeError) in try LLControlPDU.decode(b) }
        }
    }

    @Test func lengthErrorsNameTheShortfall() {
        #expect(throws: DecodeError.truncated(field: "Opcode", needed: 1)) { try LLControlPDU.decode([UInt8]()) }
        #expect(throws: DecodeError.truncated(field: "CtrData", needed: 27)) { try LLControlPDU.decode([0x30]) }
        #expect(throws: DecodeError.trailingBytes(extra: 2)) { try LLControlPDU.decode([0x36, 0, 0]) }
    }

    @Test func perTypeDecodersCheckTheirOpcode() throws {
        #expect(try LLCSReq.decode(Hex.bytes(Self.csReqHex)) == Self.csReq)
        #expect(try LLCSRsp.decode(Hex.bytes(Self.csRspHex)) == Self.csRsp)
        #expect(try LLCSInd.decode(Hex.bytes(Self.csIndHex)) == Self.csInd)
        #expect(Self.csReq.encode() == Hex.bytes(Self.csReqHex))
        #expect(throws: DecodeError.unexpectedCode(expected: 0x33, found: 0x32)) { try LLCSRsp.decode(Hex.bytes(Self.csReqHex)) }
        #expect(throws: DecodeError.unexpectedCode(expected: 0x2D, found: 0x39)) {
            try LLCSSecRsp.decode(Hex.bytes("39 3B0BCAE086517F3E 0D847386 43F168789674A664"))
        }
        #expect(try LLCSFAEReq.decode([0x36]) == LLCSFAEReq())
        #expect(try LLCSConfigRsp.decode([0x31, 0xC2]).configID == 2)  // RFU bits ignored
    }

    @Test func unknownOpcodesAreInvalidValues() {
        for op in 0...255 where LLControlOpcode(rawValue: UInt8(op)) == nil {
            #expect(throws: DecodeError.invalidValue(field: "Opcode", value: op)) { try LLControlPDU.decode([UInt8(op), 0, 0]) }
        }
        // Opcodes between the CS ones and the two generic ones all decode.
        #expect(LLControlOpcode.allCases.count == 16)
        #expect(LLControlOpcode.allCases.filter(\.isChannelSounding).count == 14)
    }

    // MARK: configuration request

    @Test func configRequestCarriesTheSendersRole() throws {
        let req = try LLCSConfigReq.decode(Hex.bytes(Self.config2Hex))
        #expect(req.action == .create && req.configID == 2)
        #expect(req.configuration == Self.config2)
        #expect(req.configuration?.role == .initiator)
        var expected = Self.config2
        expected.role = .reflector
        #expect(req.receiverConfiguration == expected)
        #expect(try LLCSConfigReq.decode(Hex.bytes(Self.config0Hex)).receiverConfiguration?.role == .initiator)
    }

    @Test func removeIgnoresTheRFUOctets() throws {
        let req = try LLCSConfigReq.decode([0x30, 0x01] + [UInt8](repeating: 0xA5, count: 26))
        #expect(req.action == .remove && req.configID == 1 && req.configuration == nil && req.receiverConfiguration == nil)
        #expect(req.encode() == [0x30, 0x01] + [UInt8](repeating: 0, count: 26))
    }

    @Test func createRefusesWhatTheLLCannotCarry() {
        var c = Self.config2
        c.timing.tIP1 = 35
        #expect(LLCSConfigReq.create(c) == nil)
        c = Self.config2
        c.configID = 4
        #expect(LLCSConfigReq.create(c) == nil)
        c = Self.config2
        c.mainMode = .mode0
        #expect(LLCSConfigReq.create(c) == nil)
        c = Self.config2
        c.channelSelection = .algorithm3c(shape: .hat, jump: 9)
        #expect(LLCSConfigReq.create(c) == nil)
        #expect(LLCSConfigReq.remove(configID: 4) == nil)
        // T_SW is not carried: create drops it so the round trip is exact.
        c = Self.config2
        c.timing.tSW = 4
        #expect(LLCSConfigReq.create(c)?.configuration == Self.config2)
    }

    /// One octet of `hex` replaced, then the expected `.invalidValue`.
    static func mutated(_ hex: String, at index: Int, to value: UInt8) -> [UInt8] {
        var b = Hex.bytes(hex)
        b[index] = value
        return b
    }

    @Test func configRequestValueChecks() {
        let h = Self.config2Hex
        let checks: [(Int, UInt8, StaticString, Int)] = [
            (1, 0x04 | 0x40, "Config_ID", 4),
            (1, 0x02 | 0x80, "Action", 2),
            (12, 0, "Channel_Map_Repetition", 0),
            (13, 0, "Main_Mode_Type", 0),
            (13, 4, "Main_Mode_Type", 4),
            (14, 0, "Sub_Mode_Type", 0),
            (17, 4, "Main_Mode_Repetition", 4),
            (18, 0, "Mode_0_Steps", 0),
            (18, 4, "Mode_0_Steps", 4),
            (19, 0x03, "CS_SYNC_PHY", 3),
            (19, 0x08, "CS_SYNC_PHY", 8),
            (20, 0x07, "RTT_Type", 7),
            (20, 0x22, "Role", 2),
            (21, 0x02, "Channel_Selection_Type", 2),
            (21, 0x21, "Ch3c_Shape", 2),
            (22, 1, "Ch3c_Jump", 1),
            (22, 9, "Ch3c_Jump", 9),
            (23, 8, "T_IP1", 8),
            (24, 8, "T_IP2", 8),
            (25, 10, "T_FCS", 10),
            (26, 3, "T_PM", 3),
        ]
        for (index, value, field, reported) in checks {
            #expect(throws: DecodeError.invalidValue(field: field, value: reported)) {
                try LLControlPDU.decode(Self.mutated(h, at: index, to: value))
            }
        }
        // RFU bits 6-7 of the RTT/role octet are ignored; #3b ignores shape and jump.
        #expect((try? LLControlPDU.decode(Self.mutated(h, at: 20, to: 0xC2))) != nil)
        var b = Hex.bytes(Self.config0Hex)
        b[21] = 0xF0
        b[22] = 0xEE
        #expect((try? LLCSConfigReq.decode(b))?.configuration == Self.config0)
    }

    @Test func schedulingValueChecks() throws {
        // LL_CS_REQ: ACI at 24, PHY at 26, TX_SNR at 28 (offsets include the opcode).
        #expect(throws: DecodeError.invalidValue(field: "ACI", value: 8)) { try LLCSReq.decode(Self.mutated(Self.csReqHex, at: 24, to: 8)) }
        #expect(throws: DecodeError.invalidValue(field: "PHY", value: 0)) { try LLCSReq.decode(Self.mutated(Self.csReqHex, at: 26, to: 0)) }
        #expect(throws: DecodeError.invalidValue(field: "PHY", value: 5)) { try LLCSReq.decode(Self.mutated(Self.csReqHex, at: 26, to: 5)) }
        #expect(throws: DecodeError.invalidValue(field: "TX_SNR_I", value: 5)) { try LLCSReq.decode(Self.mutated(Self.csReqHex, at: 28, to: 0xF5)) }
        #expect(throws: DecodeError.invalidValue(field: "TX_SNR_R", value: 6)) { try LLCSReq.decode(Self.mutated(Self.csReqHex, at: 28, to: 0x61)) }
        #expect(throws: DecodeError.invalidValue(field: "Config_ID", value: 4)) { try LLCSReq.decode(Self.mutated(Self.csReqHex, at: 1, to: 4)) }
        // RFU bits: Config_ID b6-7, Preferred_Peer_Antenna b4-7, PHY b4-7.
        #expect(try LLCSReq.decode(Self.mutated(Self.csReqHex, at: 1, to: 0xC1)) == Self.csReq)
        #expect(try LLCSReq.decode(Self.mutated(Self.csReqHex, at: 25, to: 0xF3)) == Self.csReq)
        #expect(try LLCSReq.decode(Self.mutated(Self.csReqHex, at: 26, to: 0x52)) == Self.csReq)
        // LL_CS_RSP: ACI at 18, PHY at 19; LL_CS_IND: ACI at 15, PHY at 16.
        #expect(throws: DecodeError.invalidValue(field: "ACI", value: 9)) { try LLCSRsp.decode(Self.mutated(Self.csRspHex, at: 18, to: 9)) }
        #expect(throws: DecodeError.invalidValue(field: "PHY", value: 0)) { try LLCSInd.decode(Self.mutated(Self.csIndHex, at: 16, to: 0)) }
        #expect(throws: DecodeError.invalidValue(field: "ACI", value: 8)) { try LLCSInd.decode(Self.mutated(Self.csIndHex, at: 15, to: 8)) }
        // Error codes must be defined (0x2B is reserved).
        #expect(throws: DecodeError.invalidValue(field: "Error_Code", value: 0x2B)) { try LLControlPDU.decode(Hex.bytes("35 02 0201 2B")) }
        #expect(throws: DecodeError.invalidValue(field: "Error_Code", value: 0x2B)) { try LLControlPDU.decode(Hex.bytes("11 32 2B")) }
        // The rejected opcode may be anything.
        #expect(try LLRejectExtInd.decode(Hex.bytes("11 FE 1A")) == LLRejectExtInd(rejectOpcode: 0xFE, errorCode: .unsupportedRemoteFeature))
    }

    @Test func encoderMasksFieldsToTheirWidths() throws {
        var r = Self.csReq
        r.offsetMin = 0xAB00_01F4
        r.subeventLength = 0xFF00_1388
        #expect(r.encode() == Hex.bytes(Self.csReqHex))
    }

    @Test func randomInputNeverTraps() {
        var seed: UInt64 = 0x4C4C_5044
        for (_, pdu, _) in Self.cases {
            let bytes = pdu.encode()
            DecoderChecks.fuzz(seed: seed, valid: bytes, iterations: 2000, maxLength: bytes.count + 4) { b throws(DecodeError) in
                try LLControlPDU.decode(b)
            }
            seed &+= 1
        }
    }

    /// Random CtrData of the exact length for every opcode: whatever decodes re-encodes to a
    /// payload that decodes to the same value.
    @Test func randomBodiesThatDecodeAreStable() throws {
        var rng = SplitMix64(seed: 0x0C5_11)
        var decoded = 0
        for op in LLControlOpcode.allCases {
            for _ in 0..<500 {
                let input = [op.rawValue] + rng.bytes(op.bodyLength)
                guard let pdu = try? LLControlPDU.decode(input) else { continue }
                decoded += 1
                #expect(try LLControlPDU.decode(pdu.encode()) == pdu)
            }
        }
        #expect(decoded > 2000)
    }
}

/// The capabilities PDUs with this project's Core 6.3 inline-PCT extension [U].
struct LLCapabilitiesExtensionTests {
    @Test func iptCapabilitiesTravelInTheExtendedBody() throws {
        let caps = CSCapabilities.projectReflector(antennas: 2)
        let pdu = LLControlPDU.csCapabilitiesRsp(LLCSCapabilitiesRsp(capabilities: caps))
        let bytes = pdu.encode()
        #expect(bytes.count == 1 + CSCapabilities.llExtendedBodyLength)
        guard case .csCapabilitiesRsp(let back) = try LLControlPDU.decode(bytes) else { Issue.record("wrong PDU"); return }
        #expect(back.capabilities.supportsInlinePCT)
        #expect(back.capabilities.tIP2IPTTimes == caps.tIP2IPTTimes && back.capabilities.tSWIPT == caps.tSWIPT)
        DecoderChecks.extraOctetIsTrailing(bytes) { b throws(DecodeError) in try LLControlPDU.decode(b) }
        #expect(throws: DecodeError.self) { try LLControlPDU.decode(Array(bytes.prefix(27))) }
    }
}
