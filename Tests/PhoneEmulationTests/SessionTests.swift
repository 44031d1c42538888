import Foundation
@testable import PhoneEmulation
@testable import RadioWorld
@testable import ReflectorFirmware
import Testing

/// The iOS-like session API: what an app sees.
struct SessionTests {
    final class Recorder: PeripheralDelegate {
        var results: [ChannelSoundingProcedureResults?] = []
        var errors: [ChannelSoundingError?] = []
        var completions: [ChannelSoundingError?] = []
        func peripheral(_ peripheral: Peripheral, didReceive results: ChannelSoundingProcedureResults?, error: ChannelSoundingError?) {
            self.results.append(results)
            errors.append(error)
        }
        func peripheral(_ peripheral: Peripheral, didCompleteChannelSoundingSession error: ChannelSoundingError?) { completions.append(error) }
    }

    static func peripheral(_ setup: LoopbackSetup = LoopbackSetup(scenario: AirScenario(seed: 5, geometry: AirGeometry(distance: 4.0), snrDB: 25))) -> (CentralManager, Peripheral, Recorder) {
        let central = CentralManager()
        let p = Peripheral(name: "Tag", setup: setup)
        let r = Recorder()
        p.delegate = r
        central.connect(p)
        return (central, p, r)
    }

    @Test func distancesArriveOncePerProcedure() {
        let (_, p, r) = Self.peripheral()
        p.startChannelSoundingSession(ChannelSoundingSessionConfiguration(procedureLimit: 10))
        #expect(p.isSessionRunning)
        while p.processNextProcedure() {}
        #expect(r.results.count == 10)
        #expect(r.results.allSatisfy { abs(($0?.distance ?? 0) - 4.0) < 0.05 })
        #expect(r.completions.count == 1 && r.completions[0] == nil)
        #expect(!p.isSessionRunning)
    }

    @Test func cancelEndsTheSession() {
        let (_, p, r) = Self.peripheral()
        p.startChannelSoundingSession(ChannelSoundingSessionConfiguration())
        p.processNextProcedure()
        p.cancelChannelSoundingSession()
        #expect(r.completions.count == 1 && r.completions[0] == nil)
        #expect(!p.processNextProcedure())
    }

    @Test func refusals() {
        let noHardware = CentralManager(hasChannelSoundingHardware: false)
        #expect(!noHardware.supports(.channelSounding))
        let (_, p0, r0) = Self.peripheral()
        noHardware.connect(p0)
        p0.startChannelSoundingSession(ChannelSoundingSessionConfiguration())
        #expect(r0.completions == [.notSupported])

        let lonely = Peripheral(name: "Tag", setup: LoopbackSetup())
        let r1 = Recorder()
        lonely.delegate = r1
        lonely.startChannelSoundingSession(ChannelSoundingSessionConfiguration())
        #expect(r1.completions == [.notConnected])

        var setup = LoopbackSetup()
        setup.reflectorCapabilities.tFCSTimes = .mandatory(.tFCS)
        setup.reflectorCapabilities.subfeatures.remove(.inlinePCTReflector)
        let (_, p2, r2) = Self.peripheral(setup)
        p2.startChannelSoundingSession(ChannelSoundingSessionConfiguration())
        #expect(r2.completions == [.configurationFailed(.accessoryNotSupported([.inlinePCT]))])
    }

    /// With most tones lost a procedure has no distance: the app gets nil and an error, and the session goes on.
    @Test func failedMeasurementsGiveNoDistance() {
        let (_, p, r) = Self.peripheral(LoopbackSetup(scenario: AirScenario(seed: 9, toneDropProbability: 0.9)))
        p.startChannelSoundingSession(ChannelSoundingSessionConfiguration(procedureLimit: 3))
        while p.processNextProcedure() {}
        #expect(r.results.count == 3 && r.results.allSatisfy { $0 == nil })
        #expect(r.errors.allSatisfy { $0 == .measurementFailed })
        #expect(r.completions == [nil])
    }

    @Test func trackerRejectsOutliersAndFollowsRealMoves() {
        var t = DistanceTracker()
        for k in 0..<10 { t.update(3.0 + (k % 2 == 0 ? 0.02 : -0.02), at: Double(k) * 0.1) }
        #expect(abs(t.distance! - 3.0) < 0.03)
        t.update(9.0, at: 1.0)  // one wild estimate: ignored
        #expect(abs(t.distance! - 3.0) < 0.05)
        t.update(3.01, at: 1.1)
        for k in 0..<3 { t.update(6.0, at: 1.2 + Double(k) * 0.1) }  // the accessory moved: accepted after three
        #expect(abs(t.distance! - 6.0) < 0.05)
        t.update(nil, at: 1.6)  // a failed procedure only predicts
        #expect(abs(t.distance! - 6.0) < 0.1)
    }
}
