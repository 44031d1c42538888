import Foundation
import Testing
@testable import ReflectorFirmware

/// The step engine on the ToyAir: both roles, every mode, antenna order, timing and inline PCT.
struct CSStepEngineTests {
    static func step(mode: CSMode, channel: UInt8 = 40, permutation: UInt8 = 0, ext: ToneExtension = .both) -> PlannedStep {
        PlannedStep(index: 0, subevent: 0, kind: mode == .mode0 ? .mode0 : .main, mode: mode, channel: channel,
                    accessAddresses: mode.hasCSSync ? AccessAddressPair(initiator: 0x1234_5678, reflector: 0x9ABC_DEF0) : nil,
                    antennaPermutationIndex: permutation, toneExtension: ext, soundingMarker: nil, startMicroseconds: 0, durationMicroseconds: 0)
    }

    /// Runs one step in loopback order: initiator sends, reflector answers, initiator measures.
    static func exchange(_ step: PlannedStep, aci: UInt8, inlinePCT: Bool, air: ToyAir = ToyAir(), timing: CSTiming = CSTiming(tSW: 10))
        -> (initiator: SubeventStep, reflector: SubeventStep, iRadio: ToyRadio, rRadio: ToyRadio) {
        let config = CSConfiguration(mainMode: step.mode == .mode0 ? .mode2 : step.mode, inlinePCT: inlinePCT, timing: timing)
        var ic = config
        ic.role = .initiator
        let aciValue = AntennaConfiguration(index: aci)!
        let initiator = CSStepEngine(configuration: ic, antennaConfiguration: aciValue)
        let reflector = CSStepEngine(configuration: config, antennaConfiguration: aciValue)
        var iRadio = ToyRadio(air: air, device: 0)
        var rRadio = ToyRadio(air: air, device: 1)
        initiator.transmit(step, at: 1000, radio: &iRadio)
        let r = reflector.run(step, at: 1000, radio: &rRadio)
        let i = initiator.receive(step, at: 1000, radio: &iRadio)
        return (i, r, iRadio, rRadio)
    }

    static func phase(_ pct: PhaseCorrectionTerm) -> Double { atan2(Double(pct.q), Double(pct.i)) }

    static func wrap(_ x: Double) -> Double { atan2(sin(x), cos(x)) }

    /// Without inline PCT the product of the two sides' PCTs carries the round trip h² and the
    /// LO phases cancel; with it, the initiator's PCT alone does.
    @Test(arguments: [UInt8(0), 3, 6, 7], [false, true])
    func tonesCarryTheRoundTrip(aci: UInt8, inlinePCT: Bool) throws {
        let n = AntennaConfiguration(index: aci)!.antennaPaths
        for permutation in 0..<UInt8(AntennaPermutation.count(antennaPaths: n)) {
            let air = ToyAir()
            let s = Self.step(mode: .mode2, permutation: permutation)
            let (i, r, _, _) = Self.exchange(s, aci: aci, inlinePCT: inlinePCT, air: air)
            guard case .mode2(let it) = i.data, case .mode2(let rt) = r.data else { Issue.record("not mode 2"); return }
            #expect(it.antennaPermutationIndex == permutation && rt.antennaPermutationIndex == permutation)
            for slot in 0...n {
                let path = AntennaPermutation.path(antennaPaths: n, index: Int(permutation), slot: slot)!
                let ap = AntennaPath(index: path, configuration: AntennaConfiguration(index: aci)!)
                let h = air.channelResponse(channel: s.channel, initiatorAntenna: ap.initiatorAntenna, reflectorAntenna: ap.reflectorAntenna)
                let expected = 2 * atan2(Double(h.q), Double(h.i))
                let measured = inlinePCT ? Self.phase(it[slot].pct) : Self.phase(it[slot].pct) + Self.phase(rt[slot].pct)
                // 12-bit quantisation of a 1000-amplitude tone: phase within a few milliradians.
                #expect(abs(Self.wrap(measured - expected)) < 0.01, "ACI \(aci) permutation \(permutation) slot \(slot)")
                #expect(it[slot].quality.quality == .high)
            }
            #expect(it[n].quality.extensionSlot == .toneExpected)
            #expect(it[0].quality.extensionSlot == .notExtensionSlot)
        }
    }

    /// The reflector switches antennas in the permutation's order, each T_SW before its T_PM
    /// tone; its tone group starts T_RD + T_IP2 after the initiator's.
    @Test func reflectorAntennaOrderAndTiming() throws {
        let timing = CSTiming(tIP2: 20, tPM: 10, tSW: 10)
        let s = Self.step(mode: .mode2, permutation: 13)  // A4 A1 A3 A2
        let (_, _, _, r) = Self.exchange(s, aci: 6, inlinePCT: true, timing: timing)
        let selections = r.antennaSwitch.selections
        #expect(selections.map(\.antenna) == [4, 1, 3, 2, 2, 4, 1, 3, 2, 2])
        #expect(selections.map { $0.time - 1000 } == [0, 20, 40, 60, 80, 100 + 5 + 20, 145, 165, 185, 205])
        #expect(r.toneReceptions.map { $0.time - 1000 } == [10, 30, 50, 70, 90])
    }

    /// Tone-extension presence: only the sides whose bit is set send in the slot, and the
    /// receiver marks the slot "expected" or "not expected".
    @Test(arguments: ToneExtension.allCases)
    func extensionSlot(ext: ToneExtension) throws {
        let air = ToyAir()
        let s = Self.step(mode: .mode2, ext: ext)
        let (i, r, _, _) = Self.exchange(s, aci: 0, inlinePCT: false, air: air)
        guard case .mode2(let it) = i.data, case .mode2(let rt) = r.data else { return }
        #expect(it[1].quality.extensionSlot == (ext.transmits(.reflector) ? .toneExpected : .toneNotExpected))
        #expect(rt[1].quality.extensionSlot == (ext.transmits(.initiator) ? .toneExpected : .toneNotExpected))
        #expect((it[1].quality.quality == .high) == ext.transmits(.reflector))
        let tones = air.transmissions.filter { $0.syncAddress == nil }
        #expect(tones.filter { $0.device == 0 }.count == 1 + (ext.transmits(.initiator) ? 1 : 0))
        #expect(tones.filter { $0.device == 1 }.count == 1 + (ext.transmits(.reflector) ? 1 : 0))
    }

    /// Mode 0: the reflector answers a CS_SYNC it received with its own and the T_FM tone; the
    /// initiator reports the frequency offset in 0.01 ppm. Without the initiator's CS_SYNC the
    /// reflector stays silent and reports "AA not found".
    @Test func mode0() throws {
        let (i, r, _, _) = Self.exchange(Self.step(mode: .mode0), aci: 0, inlinePCT: true)
        #expect(i.encodedLength == 3 + 5 && r.encodedLength == 3 + 3)
        guard case .mode0(let id) = i.data, case .mode0(let rd) = r.data else { Issue.record("not mode 0"); return }
        #expect(rd.packetQuality == PacketQuality() && rd.packetRSSI == -40 && rd.packetAntenna == 1)
        #expect(id.measuredFrequencyOffset == 125)
        let air = ToyAir()
        air.syncsArrive = false
        let (i2, r2, _, _) = Self.exchange(Self.step(mode: .mode0), aci: 0, inlinePCT: true, air: air)
        guard case .mode0(let id2) = i2.data, case .mode0(let rd2) = r2.data else { return }
        #expect(rd2.packetQuality.accessAddressCheck == .notFound && rd2.packetRSSI == 0x7F)
        #expect(air.transmissions.filter { $0.device == 1 }.isEmpty)
        #expect(id2.measuredFrequencyOffset == Mode0StepData.notAvailableFrequencyOffset)
    }

    /// Modes 1 and 3: ToA_ToD of the initiator minus ToD_ToA of the reflector is the round trip.
    @Test func modes1And3ReportTimeDifferences() throws {
        let (i, r, _, _) = Self.exchange(Self.step(mode: .mode1), aci: 0, inlinePCT: false)
        guard case .mode1(let id) = i.data, case .mode1(let rd) = r.data else { Issue.record("not mode 1"); return }
        #expect(id.toaTod == 12 && rd.toaTod == -12)
        let (i3, r3, _, _) = Self.exchange(Self.step(mode: .mode3), aci: 6, inlinePCT: true)
        guard case .mode3(let s3, let t3) = i3.data, case .mode3(let rs3, _) = r3.data else { Issue.record("not mode 3"); return }
        #expect(s3.toaTod - rs3.toaTod == 24)
        #expect(t3.toneCount == 5 && t3[0].quality.quality == .high)
    }

    @Test func frequencyOffsetField() {
        #expect(CSStepEngine.frequencyOffsetField(ppm: -1.5) == UInt16(bitPattern: -150) & 0x7FFF)
        #expect(CSStepEngine.frequencyOffsetField(ppm: 100.5) == 0xC000)
        #expect(CSStepEngine.frequencyOffsetField(ppm: .nan) == 0xC000)
    }
}
