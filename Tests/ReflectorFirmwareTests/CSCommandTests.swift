import Testing
@testable import ReflectorFirmware
import TestSupport

@Suite struct CSCommandTests {
    static let allowedMap = "FCFF7FFCFFFFFFFFFF1F"

    static let config = CSConfiguration(
        configID: 1, mainMode: .mode2, subMode: nil, minMainModeSteps: 2, maxMainModeSteps: 5, mainModeRepetition: 0,
        mode0Steps: 3, role: .reflector, rttType: .accessAddressOnly, csSyncPHY: .le1M, channelMap: .allowed,
        channelMapRepetition: 1, channelSelection: .algorithm3b, inlinePCT: true)

    static let createConfigHex = "4000" + "01" + "01" + "02FF0205000301" + "00" + "01" + allowedMap + "01" + "000002" + "01"

    @Test func createConfigExactBytes() throws {
        let cmd = LECSCreateConfig(connectionHandle: 0x0040, createContext: .localAndRemote, configuration: Self.config)
        let bytes = cmd.encode()
        #expect(bytes.count == 28)
        #expect(Hex.string(bytes, uppercase: true) == Self.createConfigHex)
        #expect(try LECSCreateConfig.decode(bytes) == cmd)
        #expect(Hex.string(cmd.packet.encode(), uppercase: true) == "90201C" + Self.createConfigHex)
        #expect(try LECSCreateConfig.decode(packet: cmd.packet) == cmd)
    }

    @Test func createConfigWithSubModeAnd3c() throws {
        var c = Self.config
        c.subMode = .mode1
        c.rttType = .sounding96
        c.csSyncPHY = .le2M2BT
        c.channelSelection = .algorithm3c(shape: .x, jump: 8)
        c.inlinePCT = false
        c.role = .initiator
        let cmd = LECSCreateConfig(connectionHandle: 0x0EFF, createContext: .localOnly, configuration: c)
        let bytes = cmd.encode()
        #expect(Hex.string(bytes, uppercase: true) == "FF0E" + "01" + "00" + "02010205000300" + "02" + "03" + Self.allowedMap + "01" + "010108" + "00")
        #expect(try LECSCreateConfig.decode(bytes) == cmd)
    }

    @Test func createConfigRejectsInvalidValues() {
        var b = Hex.bytes(Self.createConfigHex)
        func expectInvalid(_ index: Int, _ value: UInt8, _ field: StaticString) {
            var m = b
            m[index] = value
            #expect(throws: DecodeError.invalidValue(field: field, value: Int(value))) { _ = try LECSCreateConfig.decode(m) }
        }
        expectInvalid(2, 4, "Config_ID")
        expectInvalid(3, 2, "Create_Context")
        expectInvalid(4, 0, "Main_Mode_Type")
        expectInvalid(5, 0, "Sub_Mode_Type")
        expectInvalid(5, 4, "Sub_Mode_Type")
        expectInvalid(8, 4, "Main_Mode_Repetition")
        expectInvalid(9, 0, "Mode_0_Steps")
        expectInvalid(10, 2, "Role")
        expectInvalid(11, 7, "RTT_Type")
        expectInvalid(12, 0, "CS_SYNC_PHY")
        expectInvalid(23, 0, "Channel_Map_Repetition")
        expectInvalid(24, 2, "Channel_Selection_Type")
        b[24] = 1
        expectInvalid(26, 9, "Ch3c_Jump")
        expectInvalid(25, 2, "Ch3c_Shape")
        var h = Hex.bytes(Self.createConfigHex)
        h[1] = 0x10
        #expect(throws: DecodeError.invalidValue(field: "Connection_Handle", value: 0x1040)) { _ = try LECSCreateConfig.decode(h) }
    }

    static let procedureParameters = ProcedureParameters(
        maxProcedureLength: 0x0640, minProcedureInterval: 1, maxProcedureInterval: 1, maxProcedureCount: 0,
        minSubeventLength: 1250, maxSubeventLength: 40_000, antennaConfiguration: AntennaConfiguration(index: 0)!, phy: 1,
        txPowerDelta: nil, preferredPeerAntenna: 1, snrControlInitiator: nil, snrControlReflector: nil)
    static let setProcedureParametersHex = "4000" + "01" + "4006" + "0100" + "0100" + "0000" + "E20400" + "409C00" + "00" + "01" + "80" + "01" + "FF" + "FF"

    @Test func setProcedureParametersExactBytes() throws {
        let cmd = LECSSetProcedureParameters(connectionHandle: 0x0040, configID: 1, parameters: Self.procedureParameters)
        let bytes = cmd.encode()
        #expect(bytes.count == 23)
        #expect(Hex.string(bytes, uppercase: true) == Self.setProcedureParametersHex)
        #expect(try LECSSetProcedureParameters.decode(bytes) == cmd)

        var p = Self.procedureParameters
        p.antennaConfiguration = AntennaConfiguration(index: 7)!
        p.txPowerDelta = -3
        p.snrControlInitiator = 0
        p.snrControlReflector = 4
        p.phy = 4
        let cmd2 = LECSSetProcedureParameters(connectionHandle: 1, configID: 3, parameters: p)
        #expect(Hex.string(cmd2.encode(), uppercase: true) == "0100" + "03" + "4006" + "0100" + "0100" + "0000" + "E20400" + "409C00" + "07" + "04" + "FD" + "01" + "00" + "04")
        #expect(try LECSSetProcedureParameters.decode(cmd2.encode()) == cmd2)
    }

    @Test func setProcedureParametersRejectsInvalidValues() {
        let b = Hex.bytes(Self.setProcedureParametersHex)
        for (index, value, field) in [(17, UInt8(8), "Tone_Antenna_Config_Selection" as StaticString), (18, 0, "PHY"), (18, 5, "PHY"),
                                      (21, 5, "SNR_Control_Initiator"), (22, 0xFE, "SNR_Control_Reflector")] {
            var m = b
            m[index] = value
            #expect(throws: DecodeError.invalidValue(field: field, value: Int(value))) { _ = try LECSSetProcedureParameters.decode(m) }
        }
    }

    @Test func smallCommandsExactBytes() throws {
        #expect(Hex.string(LECSRemoveConfig(connectionHandle: 0x0040, configID: 2).encode(), uppercase: true) == "400002")
        #expect(Hex.string(LECSProcedureEnable(connectionHandle: 0x0040, configID: 1, enable: true).encode(), uppercase: true) == "40000101")
        #expect(Hex.string(LECSProcedureEnable(connectionHandle: 0x0040, configID: 1, enable: false).packet.encode(), uppercase: true) == "9420044000 0100".filter { $0 != " " })
        #expect(Hex.string(LECSSecurityEnable(connectionHandle: 0x0123).packet.encode(), uppercase: true) == "8C20022301")
        #expect(Hex.string(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x0040).packet.encode(), uppercase: true) == "8A20024000")
        #expect(Hex.string(LECSReadRemoteFAETable(connectionHandle: 0x0040).packet.encode(), uppercase: true) == "8E20024000")
        #expect(Hex.string(LECSReadLocalSupportedCapabilities().packet.encode(), uppercase: true) == "892000")
        #expect(Hex.string(LECSReadLocalSupportedCapabilitiesV2().packet.encode(), uppercase: true) == "A52000")
        #expect(Hex.string(LECSSetChannelClassification(classification: .allowed).packet.encode(), uppercase: true) == "92200A" + Self.allowedMap)
        #expect(Hex.string(LECSSetDefaultSettings(connectionHandle: 0x0040).encode(), uppercase: true) == "4000" + "02" + "FF" + "14")
        #expect(Hex.string(LECSSetDefaultSettings(connectionHandle: 0x0040, initiatorEnabled: true, reflectorEnabled: true,
                                                  csSyncAntennaSelection: 0xFE, maxTxPower: -127).encode(), uppercase: true) == "400003FE81")
        #expect(throws: DecodeError.invalidValue(field: "Enable", value: 2)) { _ = try LECSProcedureEnable.decode(Hex.bytes("40000102")) }
        #expect(throws: DecodeError.invalidValue(field: "Role_Enable", value: 4)) { _ = try LECSSetDefaultSettings.decode(Hex.bytes("400004FF14")) }
        #expect(throws: DecodeError.invalidValue(field: "CS_SYNC_Antenna_Selection", value: 5)) { _ = try LECSSetDefaultSettings.decode(Hex.bytes("4000020514")) }
        #expect(throws: DecodeError.invalidValue(field: "Max_TX_Power", value: 21)) { _ = try LECSSetDefaultSettings.decode(Hex.bytes("400002FF15")) }
        #expect(throws: DecodeError.invalidValue(field: "Max_TX_Power", value: -128)) { _ = try LECSSetDefaultSettings.decode(Hex.bytes("400002FF80")) }
        #expect(throws: DecodeError.unexpectedCode(expected: 0x2094, found: 0x2093)) {
            _ = try LECSProcedureEnable.decode(packet: HCIPacket(opcode: HCIOpcode.leCSSetProcedureParameters, parameters: [0x40, 0, 1, 1]))
        }
    }

    @Test func writeCachedRemoteFAETable() throws {
        var table = FAETable()
        for i in 0..<72 { table[i] = Int8(i - 36) }
        let cmd = LECSWriteCachedRemoteFAETable(connectionHandle: 0x0040, table: table)
        let bytes = cmd.encode()
        #expect(bytes.count == 74)
        #expect(Array(bytes.prefix(4)) == [0x40, 0x00, 0xDC, 0xDD])
        #expect(bytes.last == 35)
        #expect(try LECSWriteCachedRemoteFAETable.decode(bytes) == cmd)
        #expect(FAETable(Array(repeating: 1, count: 71)) == nil)
        #expect(FAETable(table.array) == table)
    }

    /// Round trip, truncation, trailing octet and fuzzing for every command codec.
    @Test func everyCommandIsRobust() {
        func check<C: HCICommand>(_ cmd: C, seed: UInt64, fixed: Bool = true) {
            let bytes = cmd.encode()
            #expect((try? C.decode(bytes)) == cmd)
            #expect((try? C.decode(packet: cmd.packet)) == cmd)
            DecoderChecks.everyTruncationIsTruncated(bytes) { b throws(DecodeError) in try C.decode(b) }
            if fixed { DecoderChecks.extraOctetIsTrailing(bytes) { b throws(DecodeError) in try C.decode(b) } }
            DecoderChecks.fuzz(seed: seed, valid: bytes, maxLength: bytes.count + 4) { b throws(DecodeError) in try C.decode(b) }
        }
        check(LECSCreateConfig(connectionHandle: 0x0040, configuration: Self.config), seed: 10)
        check(LECSRemoveConfig(connectionHandle: 0x0040, configID: 3), seed: 11)
        check(LECSSetProcedureParameters(connectionHandle: 0x0040, configID: 1, parameters: Self.procedureParameters), seed: 12)
        check(LECSProcedureEnable(connectionHandle: 0x0040, configID: 1, enable: true), seed: 13)
        check(LECSSetDefaultSettings(connectionHandle: 0x0040), seed: 14)
        check(LECSSetChannelClassification(classification: .allowed), seed: 15)
        check(LECSSecurityEnable(connectionHandle: 0x0040), seed: 16)
        check(LECSReadRemoteSupportedCapabilities(connectionHandle: 0x0040), seed: 17)
        check(LECSReadRemoteFAETable(connectionHandle: 0x0040), seed: 18)
        check(LECSWriteCachedRemoteFAETable(connectionHandle: 0x0040, table: FAETable(repeating: -3)), seed: 19)
        check(LECSReadLocalSupportedCapabilities(), seed: 20)
        check(LECSReadLocalSupportedCapabilitiesV2(), seed: 21)
        check(LECSTestEnd(), seed: 22)
        #expect(Hex.string(LECSTestEnd().packet.encode(), uppercase: true) == "962000")
    }

    /// How a controller answers each CS command (Core 6.0 Vol 4 Part E §7.8.130–§7.8.143, "Events
    /// generated" and "Return parameters"), as the types declare it: Command Status for those whose
    /// outcome comes in an event (LE CS Test End among them, §7.8.143), Command Complete otherwise,
    /// with Status and Connection_Handle for the four commands of one connection that return it
    /// (§7.8.132, §7.8.134, §7.8.136, §7.8.140; v2 of §7.8.132 likewise). RootCanal's and Bumble's
    /// classes agree (`CSCodecsRootCanalTests`, `CSCodecsBumbleTests`, `commandAnswers`).
    @Test func answerFormsAndReturnParameters() throws {
        let status: [HCICommandAnswer] = [LECSReadRemoteSupportedCapabilities.answer, LECSSecurityEnable.answer, LECSReadRemoteFAETable.answer,
                                          LECSCreateConfig.answer, LECSRemoveConfig.answer, LECSProcedureEnable.answer, LECSTestEnd.answer]
        #expect(status.allSatisfy { $0 == .status })
        let complete: [HCICommandAnswer] = [LECSReadLocalSupportedCapabilities.answer, LECSReadLocalSupportedCapabilitiesV2.answer,
                                            LECSWriteCachedRemoteSupportedCapabilities.answer, LECSWriteCachedRemoteSupportedCapabilitiesV2.answer,
                                            LECSSetDefaultSettings.answer, LECSWriteCachedRemoteFAETable.answer, LECSSetChannelClassification.answer,
                                            LECSSetProcedureParameters.answer]
        #expect(complete.allSatisfy { $0 == .complete })
        let withHandle = Hex.bytes("024000")  // Unknown Connection Identifier, handle 0x0040
        let expected = StatusConnectionHandleReturn(status: .unknownConnectionIdentifier, connectionHandle: 0x0040)
        #expect(try LECSWriteCachedRemoteSupportedCapabilities.ReturnParameters.decode(withHandle) == expected)
        #expect(try LECSWriteCachedRemoteSupportedCapabilitiesV2.ReturnParameters.decode(withHandle) == expected)
        #expect(try LECSSetDefaultSettings.ReturnParameters.decode(withHandle) == expected)
        #expect(try LECSWriteCachedRemoteFAETable.ReturnParameters.decode(withHandle) == expected)
        #expect(try LECSSetProcedureParameters.ReturnParameters.decode(withHandle) == expected)
        #expect(try LECSSetChannelClassification.ReturnParameters.decode([0x12]) == StatusReturn(status: .invalidHCICommandParameters))
        #expect(throws: DecodeError.trailingBytes(extra: 2)) { _ = try LECSSetChannelClassification.ReturnParameters.decode(withHandle) }
    }
}
