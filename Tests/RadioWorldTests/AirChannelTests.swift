@testable import EmulatorMath
import Foundation
@testable import RadioWorld
@testable import ReflectorFirmware
import Testing

/// The Air's channel models and geometry on their own: TGn delay spreads, realizations,
/// trajectories and the random generator.
struct AirChannelTests {
    /// Over many realizations the average power-delay profile has the profile's RMS delay spread
    /// (within 20 % of the nominal 15/30/50/100 ns) and unit mean power; single realizations
    /// scatter around it.
    @Test(arguments: TGnProfile.allCases)
    func tgnDelaySpread(profile: TGnProfile) {
        var rng = SeededGenerator(seed: 77)
        let realizations = 2000
        var pdp = [Double](repeating: 0, count: profile.tapDelays.count)
        var perRealization = 0.0
        var power = 0.0
        for _ in 0..<realizations {
            let r = ChannelRealization.draw(.tgn(profile, lineOfSight: nil), pairs: 1, distance: 3, using: &rng)
            for l in 0..<r.tapCount { pdp[l] += r.gain(pair: 0, tap: l).magnitudeSquared }
            perRealization += r.rmsDelaySpread(pair: 0)
            power += (0..<r.tapCount).map { r.gain(pair: 0, tap: $0).magnitudeSquared }.reduce(0, +)
        }
        let rms = TGnProfile.rmsDelaySpread(delays: profile.tapDelays, powers: pdp)
        #expect(abs(rms / profile.nominalRMSDelaySpread - 1) < 0.2, "\(profile): \(rms * 1e9) ns")
        #expect(abs(profile.profileRMSDelaySpread / profile.nominalRMSDelaySpread - 1) < 0.2)
        #expect(abs(power / Double(realizations) - 1) < 0.05)
        let meanSingle = perRealization / Double(realizations)
        #expect(meanSingle > 0.5 * profile.nominalRMSDelaySpread && meanSingle < 1.2 * profile.nominalRMSDelaySpread,
                "\(profile): mean single-realization RMS \(meanSingle * 1e9) ns")
    }

    /// Line of sight below the breakpoint makes the first tap Ricean (its magnitude varies less
    /// than a Rayleigh tap's); forcing NLOS makes it Rayleigh.
    @Test func tgnLineOfSightFirstTap() {
        func spread(_ los: Bool) -> Double {
            var rng = SeededGenerator(seed: 3)
            let mags = (0..<3000).map { _ in
                ChannelRealization.draw(.tgn(.e, lineOfSight: los), pairs: 1, distance: 3, using: &rng).gain(pair: 0, tap: 0).magnitudeSquared
            }
            let m = mags.reduce(0, +) / Double(mags.count)
            return (mags.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(mags.count)).squareRoot() / m
        }
        // Rayleigh power has σ/μ = 1; Ricean K = 6 dB: √(1 + 2K)/(1 + K) ≈ 0.61.
        #expect(abs(spread(false) - 1) < 0.1)
        #expect(abs(spread(true) - 0.61) < 0.1)
    }

    /// The Air's responses come from its realization, reciprocally, and redrawing changes them.
    @Test func airRealizationsAndRedraw() {
        let air = Air(scenario: AirScenario(channelModel: .tgn(.c, lineOfSight: nil)))
        let h = air.channelResponse(channel: 30, initiatorAntenna: 2, reflectorAntenna: 3)
        let length = air.scenario.geometry.pathLength(initiatorAntenna: 2, reflectorAntenna: 3, at: 0)
        let direct = air.realization.response(pair: 1 * 4 + 2, frequency: Air.frequency(channel: 30), lineOfSightLength: length)
        #expect((h - direct).magnitude < 1e-12)
        air.redrawChannel()
        #expect((air.channelResponse(channel: 30, initiatorAntenna: 2, reflectorAntenna: 3) - h).magnitude > 1e-6)
        // Coherence time: the taps change by themselves between steps that far apart.
        let timed = Air(scenario: AirScenario(channelModel: .tgn(.b, lineOfSight: nil), channelCoherenceTime: 10_000))
        let before = timed.realization
        timed.tune(.initiator, channel: 5, at: 5_000)
        #expect(timed.realization == before)
        timed.tune(.initiator, channel: 5, at: 12_000)
        #expect(timed.realization != before)
    }

    /// Trajectories interpolate the distance and clamp outside their span; the per-antenna path
    /// length follows the geometry.
    @Test func trajectoryAndGeometry() {
        let tr = AirTrajectory(startDistance: 1, endDistance: 5, startTime: 1_000, duration: 2_000_000)
        #expect(tr.distance(at: 0) == 1 && tr.distance(at: 1_000) == 1)
        #expect(abs(tr.distance(at: 501_000) - 2) < 1e-12)
        #expect(tr.distance(at: 9_000_000) == 5)
        #expect(abs(tr.velocity(at: 10_000) - 2) < 1e-12 && tr.velocity(at: 3_000_000) == 0)
        // A profile of several segments, with a jump: each segment interpolates on its own.
        let profile = AirTrajectory(waypoints: [.init(time: 0, distance: 2), .init(time: 100, distance: 3),
                                                .init(time: 100, distance: 5), .init(time: 300, distance: 4)])
        #expect(profile.distance(at: 50) == 2.5 && profile.distance(at: 99) == 2.99)
        #expect(profile.distance(at: 100) == 5 && profile.distance(at: 200) == 4.5 && profile.distance(at: 1_000) == 4)
        #expect(abs(profile.velocity(at: 150) - (-1 / 200e-6)) < 1e-9 && profile.velocity(at: 300) == 0)
        let jump = AirTrajectory(startDistance: 1, endDistance: 2, startTime: 10, duration: 0)
        #expect(jump.distance(at: 9) == 1 && jump.distance(at: 10) == 2)
        let g = AirGeometry(distance: 3, initiatorAntennas: [.origin, AirPoint(y: 0.1)], reflectorAntennas: [AirPoint(x: 0.5)])
        #expect(g.pathLength(initiatorAntenna: 1, reflectorAntenna: 1, at: 0) == 3.5)
        #expect(abs(g.pathLength(initiatorAntenna: 2, reflectorAntenna: 1, at: 0) - (3.5 * 3.5 + 0.01).squareRoot()) < 1e-12)
        // Antenna numbers beyond the device's antennas use its last one.
        #expect(g.pathLength(initiatorAntenna: 4, reflectorAntenna: 3, at: 0) == g.pathLength(initiatorAntenna: 2, reflectorAntenna: 1, at: 0))
    }

    /// The generator is reproducible, its streams differ, and its Gaussians are standard.
    @Test func seededGenerator() {
        var a = SeededGenerator(seed: 1), b = SeededGenerator(seed: 1), c = SeededGenerator(seed: 1, stream: 2)
        let xa = (0..<8).map { _ in a.next() }
        #expect(xa == (0..<8).map { _ in b.next() })
        #expect(xa != (0..<8).map { _ in c.next() })
        var g = SeededGenerator(seed: 11)
        let n = 100_000
        var s1 = 0.0, s2 = 0.0
        for _ in 0..<n {
            let x = g.gaussian()
            s1 += x
            s2 += x * x
        }
        #expect(abs(s1 / Double(n)) < 0.02 && abs(s2 / Double(n) - 1) < 0.02)
        var u = SeededGenerator(seed: 12)
        let m = (0..<n).map { _ in u.uniform() }
        #expect(m.allSatisfy { $0 >= 0 && $0 < 1 } && abs(m.reduce(0, +) / Double(n) - 0.5) < 0.01)
    }
}
