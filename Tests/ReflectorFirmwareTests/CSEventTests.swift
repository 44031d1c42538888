import Testing
@testable import ReflectorFirmware
import TestSupport

@Suite struct CSEventTests {
    static var createdConfig: CSConfiguration {
        var c = CSCommandTests.config
        c.subMode = .mode1
        c.channelSelection = .algorithm3c(shape: .hat, jump: 3)
        c.timing = CSTiming(tIP1: 30, tIP2: 20, tFCS: 60, tPM: 10, tSW: 0)
        return c
    }
    static let configCompleteHex = "00" + "4000" + "01" + "01" + "02010205000301" + "00" + "01" + CSCommandTests.allowedMap + "01" + "010003" + "01" + "1E143C0A"

    @Test func configCompleteExactBytes() throws {
        let e = LECSConfigComplete(connectionHandle: 0x0040, created: Self.createdConfig)
        let bytes = e.encode()
        #expect(bytes.count == 33)
        #expect(Hex.string(bytes, uppercase: true) == Self.configCompleteHex)
        #expect(try LECSConfigComplete.decode(bytes) == e)
        #expect(Hex.string(e.packet.encode(), uppercase: true) == "3E222F" + Self.configCompleteHex)
        #expect(try LECSConfigComplete.decode(packet: e.packet) == e)
    }

    @Test func configCompleteMandatoryTimesAndRemoved() throws {
        let e = LECSConfigComplete(connectionHandle: 0x0040, created: CSCommandTests.config)
        #expect(Hex.string(e.encode().suffix(4), uppercase: true) == "91919628")  // 145, 145, 150, 40 µs
        #expect(try LECSConfigComplete.decode(e.encode()) == e)
        let removed = LECSConfigComplete(connectionHandle: 0x0040, configID: 2, action: .removed, configuration: nil)
        let rb = removed.encode()
        #expect(rb.count == 33)
        #expect(Hex.string(rb.prefix(5), uppercase: true) == "0040000200")
        #expect(rb.dropFirst(5).allSatisfy { $0 == 0 })
        #expect(try LECSConfigComplete.decode(rb) == removed)
        // A failed creation carries no configuration; the garbage after Action is ignored.
        var failed = Hex.bytes(Self.configCompleteHex)
        failed[0] = HCIStatus.commandDisallowed.rawValue
        failed[5] = 0x77
        let f = try LECSConfigComplete.decode(failed)
        #expect(f.status == .commandDisallowed && f.configuration == nil && f.action == .created)
    }

    @Test func configCompleteRejectsInvalidTimes() {
        for (index, value, field) in [(29, UInt8(11), "T_IP1_Time" as StaticString), (30, 0, "T_IP2_Time"), (31, 145, "T_FCS_Time"), (32, 30, "T_PM_Time")] {
            var m = Hex.bytes(Self.configCompleteHex)
            m[index] = value
            #expect(throws: DecodeError.invalidValue(field: field, value: Int(value))) { _ = try LECSConfigComplete.decode(m) }
        }
        var m = Hex.bytes(Self.configCompleteHex)
        m[4] = 2
        #expect(throws: DecodeError.invalidValue(field: "Action", value: 2)) { _ = try LECSConfigComplete.decode(m) }
    }

    static let procedureEnableCompleteHex = "00" + "4000" + "01" + "01" + "00" + "FC" + "102700" + "01" + "0000" + "0100" + "0200" + "0000" + "4006"

    @Test func procedureEnableCompleteExactBytes() throws {
        let e = LECSProcedureEnableComplete(
            connectionHandle: 0x0040, configID: 1, enabled: true, antennaConfigurationIndex: 0, selectedTxPower: -4,
            subeventLength: 10_000, subeventsPerEvent: 1, subeventInterval: 0, eventInterval: 1, procedureInterval: 2,
            procedureCount: 0, maxProcedureLength: 0x0640)
        let bytes = e.encode()
        #expect(bytes.count == 21)
        #expect(Hex.string(bytes, uppercase: true) == Self.procedureEnableCompleteHex)
        #expect(try LECSProcedureEnableComplete.decode(bytes) == e)
        #expect(e.antennaConfiguration?.antennaPaths == 1)
        var m = bytes
        m[5] = 8
        #expect(throws: DecodeError.invalidValue(field: "Tone_Antenna_Config_Selection", value: 8)) { _ = try LECSProcedureEnableComplete.decode(m) }
        m[4] = 0  // disabled: the rest is ignored
        #expect(try LECSProcedureEnableComplete.decode(m).enabled == false)
        m[4] = 2
        #expect(throws: DecodeError.invalidValue(field: "State", value: 2)) { _ = try LECSProcedureEnableComplete.decode(m) }
    }

    @Test func smallEventsExactBytes() throws {
        #expect(Hex.string(LECSSecurityEnableComplete(connectionHandle: 0x0040).packet.encode(), uppercase: true) == "3E042E004000")
        #expect(Hex.string(LECSTestEndComplete().packet.encode(), uppercase: true) == "3E023300")
        var t = FAETable()
        t[0] = -128
        t[71] = 127
        let fae = LECSReadRemoteFAETableComplete(connectionHandle: 0x0040, table: t)
        let b = fae.encode()
        #expect(b.count == 75)
        #expect(Hex.string(b.prefix(4), uppercase: true) == "00400080")
        #expect(b.last == 0x7F)
        #expect(throws: DecodeError.unexpectedCode(expected: 0x2E, found: 0x33)) {
            _ = try LECSSecurityEnableComplete.decode(packet: LECSTestEndComplete().packet)
        }
    }

    @Test func everyEventIsRobust() {
        func check<E: LEMetaSubevent>(_ event: E, seed: UInt64) {
            let bytes = event.encode()
            #expect((try? E.decode(bytes)) == event)
            #expect((try? E.decode(packet: event.packet)) == event)
            #expect((try? E.decode(packet: HCIPacket(event: event.packet.encode()))) == event)
            DecoderChecks.everyTruncationIsTruncated(bytes) { b throws(DecodeError) in try E.decode(b) }
            DecoderChecks.extraOctetIsTrailing(bytes) { b throws(DecodeError) in try E.decode(b) }
            DecoderChecks.fuzz(seed: seed, valid: bytes, maxLength: bytes.count + 4) { b throws(DecodeError) in try E.decode(b) }
        }
        check(LECSConfigComplete(connectionHandle: 0x0040, created: Self.createdConfig), seed: 30)
        check(LECSConfigComplete(connectionHandle: 0x0040, configID: 0, action: .removed, configuration: nil), seed: 31)
        check(LECSProcedureEnableComplete(connectionHandle: 0x0040, configID: 1, enabled: true, selectedTxPower: -4), seed: 32)
        check(LECSSecurityEnableComplete(status: .insufficientSecurity, connectionHandle: 0x0040), seed: 33)
        check(LECSTestEndComplete(status: .success), seed: 34)
        check(LECSReadRemoteFAETableComplete(connectionHandle: 0x0040, table: FAETable(repeating: 5)), seed: 35)
    }
}
