import Testing
@testable import ReflectorFirmware
import TestSupport

@Suite struct StepDataTests {
    static let reflector1 = StepDataContext(role: .reflector, antennaPaths: 1)

    // Worked decodes from the btmon output in the BlueZ CS monitor patch (reference §2).

    @Test func btmonMode0Reflector() throws {
        let d = try StepData.decode(mode: .mode0, context: Self.reflector1, Hex.bytes("00e801"))
        guard case let .mode0(m) = d else { Issue.record("not mode 0"); return }
        #expect(m.packetQuality == PacketQuality(accessAddressCheck: .ok, bitErrorCount: 0))
        #expect(m.packetRSSI == -24)
        #expect(m.packetAntenna == 1)
        #expect(m.measuredFrequencyOffset == nil)
        #expect(Hex.string(d.encode(), uppercase: true) == "00E801")
    }

    @Test func btmonMode2Channel71() throws {
        let raw = Hex.bytes("00 0702f4 00 0aa2f4 20")
        let d = try StepData.decode(mode: .mode2, context: Self.reflector1, raw)
        guard case let .mode2(t) = d else { Issue.record("not mode 2"); return }
        #expect(t.antennaPermutationIndex == 0)
        #expect(t.toneCount == 2)
        #expect(t[0].pct.packed == 0xF40207)
        #expect(t[0].pct.i == 519)
        #expect(t[0].pct.q == -192)
        #expect(t[0].quality == ToneQualityIndicator(quality: .high, extensionSlot: .notExtensionSlot))
        #expect(t[1].pct.packed == 0xF4A20A)
        #expect(t[1].pct.i == 522)
        #expect(t[1].pct.q == -182)
        #expect(t[1].quality == ToneQualityIndicator(quality: .high, extensionSlot: .toneExpected))
        #expect(d.encode() == raw)
    }

    @Test func btmonMode1Channel16() throws {
        let raw = Hex.bytes("00ffe8f8ff01")
        let d = try StepData.decode(mode: .mode1, context: Self.reflector1, raw)
        guard case let .mode1(m) = d else { Issue.record("not mode 1"); return }
        #expect(m.packetQuality.accessAddressCheck == .ok)
        #expect(m.packetNADM == 0xFF)
        #expect(m.packetRSSI == -24)
        #expect(m.toaTod == -8)  // −4 ns
        #expect(m.packetAntenna == 1)
        #expect(m.sequencePCT == nil)
        #expect(d.encode() == raw)
    }

    @Test func btmonStepsAsSubeventSteps() throws {
        var r = ByteReader(Hex.bytes("00 03 03 00e801  02 47 09 000702f4000aa2f420  01 10 06 00ffe8f8ff01"))
        let s0 = try SubeventStep.decode(context: Self.reflector1, from: &r)
        let s1 = try SubeventStep.decode(context: Self.reflector1, from: &r)
        let s2 = try SubeventStep.decode(context: Self.reflector1, from: &r)
        #expect(r.isAtEnd)
        #expect(s0.mode == .mode0 && s0.channel == 3)
        #expect(s1.mode == .mode2 && s1.channel == 71)
        #expect(s2.mode == .mode1 && s2.channel == 16)
    }

    @Test func phaseCorrectionTermPacking() {
        let p = PhaseCorrectionTerm(i: 519, q: -192)
        #expect(p.packed == 0xF40207)
        for (i, q) in [(0, 0), (2047, -2048), (-2048, 2047), (-1, 1), (1000, -1000)] {
            let t = PhaseCorrectionTerm(i: i, q: q)
            #expect(Int(t.i) == i && Int(t.q) == q)
        }
        // Integer inputs clamp to the 12-bit range.
        #expect(PhaseCorrectionTerm(i: 5000, q: -5000).i == 2047)
        #expect(PhaseCorrectionTerm(i: 5000, q: -5000).q == -2048)
        // Floating-point inputs round to nearest and saturate to ±2047.
        let f = PhaseCorrectionTerm(i: 518.6, q: -191.5)
        #expect(f.i == 519 && f.q == -192)
        let sat = PhaseCorrectionTerm(i: 1e9, q: -1e9)
        #expect(sat.i == 2047 && sat.q == -2047)
        let nan = PhaseCorrectionTerm(i: Double.nan, q: -Double.infinity)
        #expect(nan.i == 0 && nan.q == -2047)
        #expect(PhaseCorrectionTerm(packed: 0xFFF40207).packed == 0xF40207)
    }

    @Test func toneQualityIndicatorNibbles() throws {
        for q in ToneQuality.allCases {
            for e in ToneExtensionSlot.allCases {
                let t = ToneQualityIndicator(quality: q, extensionSlot: e)
                #expect(t.octet == q.rawValue | e.rawValue << 4)
                #expect(try ToneQualityIndicator(octet: t.octet) == t)
            }
        }
        #expect(throws: DecodeError.invalidValue(field: "Tone_Quality_Indicator", value: 0x04)) { _ = try ToneQualityIndicator(octet: 0x04) }
        #expect(throws: DecodeError.invalidValue(field: "Tone_Quality_Indicator", value: 0x30)) { _ = try ToneQualityIndicator(octet: 0x30) }
    }

    @Test func packetQualityNibbles() throws {
        let q = PacketQuality(accessAddressCheck: .bitErrors, bitErrorCount: 3)
        #expect(q.octet == 0x31)
        #expect(try PacketQuality(octet: 0x31) == q)
        #expect(throws: DecodeError.invalidValue(field: "Packet_Quality", value: 0x03)) { _ = try PacketQuality(octet: 0x03) }
    }

    static func tones(_ nap: Int, seed: Int = 0) -> ToneStepData {
        var t = ToneStepData(antennaPermutationIndex: UInt8(nap == 4 ? 23 : 0), antennaPaths: nap)
        for k in 0..<t.toneCount {
            t[k] = ToneMeasurement(pct: PhaseCorrectionTerm(i: 100 * k - 7 + seed, q: -50 * k + 3),
                                   quality: ToneQualityIndicator(quality: .medium, extensionSlot: k == nap ? .toneNotExpected : .notExtensionSlot))
        }
        return t
    }

    static let rtt = Mode1StepData(packetQuality: PacketQuality(accessAddressCheck: .bitErrors, bitErrorCount: 2), packetNADM: 3,
                                   packetRSSI: -60, toaTod: 1234, packetAntenna: 2)

    /// (step data, context, expected length) for every mode/role/N_AP/PCT combination.
    static var cases: [(StepData, StepDataContext, Int)] {
        var out: [(StepData, StepDataContext, Int)] = []
        out.append((.mode0(Mode0StepData(packetRSSI: -40, packetAntenna: 2)), StepDataContext(role: .reflector), 3))
        out.append((.mode0(Mode0StepData(packetRSSI: -40, packetAntenna: 2, measuredFrequencyOffset: 0x7F00)), StepDataContext(role: .initiator), 5))
        out.append((.mode1(rtt), StepDataContext(role: .reflector), 6))
        var withPCT = rtt
        withPCT.sequencePCT = SequencePhaseCorrection(pct1: PhaseCorrectionTerm(i: 5, q: -5), pct2: nil)
        out.append((.mode1(withPCT), StepDataContext(role: .initiator, sequencePCT: true), 14))
        for nap in 1...4 {
            out.append((.mode2(tones(nap)), StepDataContext(role: .reflector, antennaPaths: nap), 1 + 4 * (nap + 1)))
            out.append((.mode3(rtt, tones(nap)), StepDataContext(role: .reflector, antennaPaths: nap), 7 + 4 * (nap + 1)))
            out.append((.mode3(withPCT, tones(nap)), StepDataContext(role: .initiator, antennaPaths: nap, sequencePCT: true), 15 + 4 * (nap + 1)))
        }
        return out
    }

    @Test func lengthsRoundTripAndRobustness() throws {
        for (k, (data, context, length)) in Self.cases.enumerated() {
            let bytes = data.encode()
            #expect(bytes.count == length)
            #expect(data.encodedLength == length)
            #expect(context.stepDataLength(data.mode) == length)
            #expect(try StepData.decode(mode: data.mode, context: context, bytes) == data)
            DecoderChecks.everyTruncationIsTruncated(bytes) { b throws(DecodeError) in try StepData.decode(mode: data.mode, context: context, b) }
            DecoderChecks.extraOctetIsTrailing(bytes) { b throws(DecodeError) in try StepData.decode(mode: data.mode, context: context, b) }
            DecoderChecks.fuzz(seed: 100 + UInt64(k), valid: bytes, iterations: 1000, maxLength: 40) { b throws(DecodeError) in
                try StepData.decode(mode: data.mode, context: context, b)
            }
            // As a whole HCI step.
            let step = SubeventStep(channel: 40, data: data)
            var w = ByteWriter()
            step.encode(into: &w)
            #expect(w.bytes.count == 3 + length)
            #expect(w.bytes[2] == UInt8(length))
            var r = ByteReader(w.bytes)
            #expect(try SubeventStep.decode(context: context, from: &r) == step)
            DecoderChecks.everyTruncationIsTruncated(w.bytes) { b throws(DecodeError) in
                var r = ByteReader(b)
                return try SubeventStep.decode(context: context, from: &r)
            }
        }
    }

    @Test func stepDataLengthMustMatchContext() {
        // Mode-0 initiator data (5 octets) read with reflector context (3 octets).
        var r = ByteReader(Hex.bytes("00 03 05 00e801 00c0"))
        #expect(throws: DecodeError.invalidValue(field: "Step_Data_Length", value: 5)) { _ = try SubeventStep.decode(context: Self.reflector1, from: &r) }
        // Mode-2 data for N_AP = 1 (9 octets) read with N_AP = 2 (13 octets).
        var r2 = ByteReader(Hex.bytes("02 47 09 000702f4000aa2f420"))
        #expect(throws: DecodeError.invalidValue(field: "Step_Data_Length", value: 9)) {
            _ = try SubeventStep.decode(context: StepDataContext(role: .reflector, antennaPaths: 2), from: &r2)
        }
        var r3 = ByteReader(Hex.bytes("04 47 00"))
        #expect(throws: DecodeError.invalidValue(field: "Step_Mode", value: 4)) { _ = try SubeventStep.decode(context: Self.reflector1, from: &r3) }
        var r4 = ByteReader(Hex.bytes("00 4F 03 00e801"))
        #expect(throws: DecodeError.invalidValue(field: "Step_Channel", value: 79)) { _ = try SubeventStep.decode(context: Self.reflector1, from: &r4) }
        var r5 = ByteReader(Hex.bytes("02 47 09 000702f4000aa2f420"))
        #expect(throws: DecodeError.invalidValue(field: "Num_Antenna_Paths", value: 0)) {
            _ = try SubeventStep.decode(context: StepDataContext(role: .reflector, antennaPaths: 0), from: &r5)
        }
        #expect(throws: DecodeError.invalidValue(field: "Antenna_Permutation_Index", value: 1)) {
            _ = try StepData.decode(mode: .mode2, context: Self.reflector1, Hex.bytes("010702f4000aa2f420"))
        }
        #expect(throws: DecodeError.invalidValue(field: "Packet_NADM", value: 7)) {
            _ = try StepData.decode(mode: .mode1, context: Self.reflector1, Hex.bytes("0007e8f8ff01"))
        }
    }

    @Test func mode0FrequencyOffsetAndSequencePCT() throws {
        #expect(Mode0StepData(packetRSSI: 0, measuredFrequencyOffset: 0xC000).frequencyOffsetHundredthsPPM == nil)
        #expect(Mode0StepData(packetRSSI: 0, measuredFrequencyOffset: 0x7FFF).frequencyOffsetHundredthsPPM == -1)
        #expect(Mode0StepData(packetRSSI: 0, measuredFrequencyOffset: 0x2710).frequencyOffsetHundredthsPPM == 10_000)
        let pct = SequencePhaseCorrection(pct1: nil, pct2: PhaseCorrectionTerm(i: -1, q: 1))
        var w = ByteWriter()
        pct.encode(into: &w)
        #expect(Hex.string(w.bytes, uppercase: true) == "FFFFFFFF" + "FF1F0000")
    }

    @Test func toneStepDataConstruction() {
        #expect(ToneStepData(antennaPermutationIndex: 0, tones: [ToneMeasurement()]) == nil)
        #expect(ToneStepData(antennaPermutationIndex: 0, tones: Array(repeating: ToneMeasurement(), count: 6)) == nil)
        let t = Self.tones(3)
        #expect(ToneStepData(antennaPermutationIndex: t.antennaPermutationIndex, tones: t.toneArray) == t)
        #expect(ToneStepData.maxPermutationIndex(antennaPaths: 1) == 0)
        #expect(ToneStepData.maxPermutationIndex(antennaPaths: 4) == 23)
    }
}
