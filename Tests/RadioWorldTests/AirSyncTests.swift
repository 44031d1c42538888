import Foundation
@testable import RadioWorld
@testable import ReflectorFirmware
import Testing

/// CS_SYNC on the Air: RTT along a trajectory, RSSI, drops, and lost tones.
struct AirSyncTests {
    /// Along a trajectory the initiator's ToA_ToD minus the reflector's ToD_ToA is 2·ToF at the
    /// step's time (exact to the 0.5 ns rounding without jitter; on average with 1 ns jitter).
    @Test(arguments: [0.0, 1.0])
    func rttTracksTimeOfFlight(jitter: Double) {
        var scenario = AirScenario.ideal()
        scenario.rttJitterNanoseconds = jitter
        scenario.geometry = AirGeometry(distance: 0, trajectory: AirTrajectory(startDistance: 1, endDistance: 30, startTime: 0, duration: 1_000_000),
                                        initiatorAntennas: [.origin], reflectorAntennas: [.origin])
        var link = AirLink(scenario, mainMode: .mode1)
        var sumError = 0.0
        let steps = 400
        for k in 0..<steps {
            let t = UInt64(k) * 2_500
            let (i, r) = link.exchange(AirLink.step(mode: .mode1, channel: AirLink.csChannels[k % 72]), at: t)
            guard case .mode1(let id) = i.data, case .mode1(let rd) = r.data else { Issue.record("not mode 1"); return }
            let tl = link.timeline(.mode1)
            // The initiator's packet leaves at t, the reflector's at t + reflectorSync.
            let d1 = scenario.geometry.distance(at: t), d2 = scenario.geometry.distance(at: t + UInt64(tl.reflectorSync))
            let twoToF = (d1 + d2) / Air.speedOfLight * 1e9 * 2  // in 0.5 ns
            let measured = Double(Int(id.toaTod) - Int(rd.toaTod))
            if jitter == 0 { #expect(abs(measured - twoToF) <= 1.01, "step \(k): \(measured) vs \(twoToF)") }
            sumError += measured - twoToF
        }
        #expect(abs(sumError / Double(steps)) < 0.3)
    }

    /// RSSI follows free-space path loss from the TX power: about −40 dBm at 1 m, 20 dB less
    /// at 10 m.
    @Test func rssiFromPathLoss() {
        func rssi(_ d: Double) -> Int8 {
            var s = AirScenario.ideal(distance: d)
            s.geometry = AirGeometry(distance: d, initiatorAntennas: [.origin], reflectorAntennas: [.origin])
            var link = AirLink(s, mainMode: .mode1)
            let (_, r) = link.exchange(AirLink.step(mode: .mode1, channel: 40), at: 1_000)
            guard case .mode1(let m) = r.data else { return 0 }
            return m.packetRSSI
        }
        #expect(abs(Int(rssi(1)) + 40) <= 1)
        #expect(abs(Int(rssi(10)) - Int(rssi(1)) + 20) <= 1)
    }

    /// A dropped CS_SYNC in mode 0: the reflector reports "AA not found", sends nothing back,
    /// and the initiator has no frequency offset.
    @Test func droppedSyncSilencesTheReflector() {
        var s = AirScenario()
        s.syncDropProbability = 1
        var link = AirLink(s)
        let (i, r) = link.exchange(AirLink.step(mode: .mode0), at: 1_000)
        guard case .mode0(let id) = i.data, case .mode0(let rd) = r.data else { Issue.record("not mode 0"); return }
        #expect(rd.packetQuality.accessAddressCheck == .notFound && rd.packetRSSI == 0x7F)
        #expect(link.air.transmissions.allSatisfy { $0.device == .initiator })
        #expect(id.packetQuality.accessAddressCheck == .notFound)
        #expect(id.measuredFrequencyOffset == Mode0StepData.notAvailableFrequencyOffset)
        // With the packets getting through, the same step answers.
        var link2 = AirLink(AirScenario())
        let (i2, r2) = link2.exchange(AirLink.step(mode: .mode0), at: 1_000)
        guard case .mode0(let id2) = i2.data, case .mode0(let rd2) = r2.data else { return }
        #expect(rd2.packetQuality == PacketQuality() && id2.packetQuality == PacketQuality())
        #expect(link2.air.transmissions.filter { $0.device == .reflector }.count == 2)  // CS_SYNC and T_FM
    }

    /// A drop probability of about 1 in 3 makes about a third of the tones low (noise only;
    /// never "unavailable": this controller always has an indication); the others stay high or
    /// medium at 25 dB.
    @Test func droppedTonesAreLow() {
        var s = AirScenario(seed: 8, snrDB: 25, toneDropProbability: 0.3)
        s.reflectorCrystalPPM = 0
        var link = AirLink(s, aci: 6)
        var low = 0, total = 0
        for k in 0..<300 {
            let (_, r) = link.exchange(AirLink.step(mode: .mode2, channel: AirLink.csChannels[k % 72], permutation: UInt8(k % 24)), at: UInt64(1_000 + k * 800))
            let t = AirMath.tones(r)!
            for slot in 0..<t.toneCount {
                total += 1
                switch t[slot].quality.quality {
                case .low: low += 1
                case .unavailable: Issue.record("this controller always has a quality indication")
                default: break
                }
            }
        }
        let fraction = Double(low) / Double(total)
        #expect(abs(fraction - 0.3) < 0.04, "low \(fraction)")
        // No drops: nothing low.
        var clean = AirLink(AirScenario(seed: 8, snrDB: 25, reflectorCrystalPPM: 0), aci: 6)
        let (_, r) = clean.exchange(AirLink.step(mode: .mode2), at: 1_000)
        let t = AirMath.tones(r)!
        #expect((0..<t.toneCount).allSatisfy { t[$0].quality.quality == .high || t[$0].quality.quality == .medium })
    }

    /// The reflector's switch follows the engine's permutation order (A4 A1 A3 A2 for index 13).
    @Test func antennaSwitchRecordsSelections() {
        var link = AirLink(.ideal(), aci: 6)
        _ = link.exchange(AirLink.step(mode: .mode2, permutation: 13), at: 1_000)
        #expect(link.reflectorRadio.antennaSwitch.selections.map(\.antenna) == [4, 1, 3, 2, 2, 4, 1, 3, 2, 2])
        #expect(link.reflectorRadio.antennaSwitch.antenna == 2)
    }
}
