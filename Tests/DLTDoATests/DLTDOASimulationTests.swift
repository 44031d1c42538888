@testable import AnchorFirmware
@testable import DLTDoA
@testable import EmulatorMath
import Foundation
@testable import NearbyInteraction
import Testing

/// DL-TDoA end to end: anchor firmware on drifting crystals, frames over the air, the phone's
/// session and the app's positioner, against the truth and the Cramér-Rao bound.
struct DLTDOASimulationTests {
    static func rmse(_ values: [Double]) -> Double { (values.map { $0 * $0 }.reduce(0, +) / Double(max(values.count, 1))).squareRoot() }

    /// The default room with only the phone's timestamps noisy (σ = 10 cm), so the bound the
    /// positioner's problem states is the true one.
    static func cleanRoom(seed: UInt64 = 1) -> (DLTDOADeployment, DLTDOASimulation.Options) {
        var d = DLTDOADeployment.defaultRoom(seed: seed)
        d.timestampSigma = 0.10
        var o = DLTDOASimulation.Options(networkIdentifier: 0x1234)
        o.anchorTimestampSigma = 0
        return (d, o)
    }

    /// With 10 cm timestamp noise and good geometry (eight anchors at the corners of the room,
    /// four up and four low), the fixes' RMSE is 1.02× the CRLB of their geometry (the figure of
    /// docs/commands/tdoa.md), over three 20 s walks of 100 fixes each.
    @Test func accuracyNearTheBound() {
        var errors: [Double] = [], bounds: [Double] = []
        for seed in UInt64(1)...3 {
            let (d, o) = Self.cleanRoom(seed: seed)
            let run = DLTDOASimulation.run(d, o)
            #expect(run.records.count == 100)
            errors += run.records.map(\.fixError)
            bounds += run.records.map(\.bound)
        }
        let rmse = Self.rmse(errors), crlb = Self.rmse(bounds)
        #expect((rmse / crlb * 100).rounded() == 102)
    }

    /// Crystals at up to ±20 ppm (anchors and phone): corrected, the error stays at the bound;
    /// uncorrected (α = 1), a few-millisecond round turns them into metres. The figures of docs/commands/tdoa.md:
    /// range differences 0.14 m RMS corrected, 54 m uncorrected, and no fix inside the room.
    @Test func clockDriftCorrected() {
        var (d, o) = Self.cleanRoom()
        d.anchors = d.anchors.enumerated().map { i, a in var a = a; a.clockPPM = i % 2 == 0 ? 20 : -20; a.clockDriftPPMPerSecond = 0.02; return a }
        d.receiverClockPPM = -20  // 40 ppm from the initiator's crystal
        let corrected = DLTDOASimulation.run(d, o)
        o.correctsClockOffset = false
        let uncorrected = DLTDOASimulation.run(d, o)
        let good = Self.rmse(corrected.records.map(\.fixError))
        #expect(good < 0.3)
        #expect(corrected.records.count == 100)
        // Uncorrected, the range differences themselves are tens of metres off, and the
        // solver finds no position inside the room for most epochs.
        let (goodDiff, badDiff) = (Self.differenceErrors(d, correct: true), Self.differenceErrors(d, correct: false))
        #expect((goodDiff * 100).rounded() == 14)
        #expect(badDiff.rounded() == 54)
        #expect(uncorrected.records.isEmpty)
        // ...and says why rather than answering with a point held to the room.
        #expect(uncorrected.unsolvedEpochs == 100)
        #expect(uncorrected.lastNoFix?.reason == .noFit)  // differences tens of metres off: every fit ends far outside
    }

    /// RMS error of every range difference the assembler gives, against the truth.
    static func differenceErrors(_ d: DLTDOADeployment, correct: Bool) -> Double {
        final class Collect: DLTDOASessionDelegate {
            var all: [DLTDOAMeasurement] = []
            func session(_ session: DLTDOASession, didUpdateDLTDOA measurements: [DLTDOAMeasurement]) { all += measurements }
            func session(_ session: DLTDOASession, didInvalidateWith error: NearbyError) {}
        }
        let session = DLTDOASession(air: DLTDOAAir(deployment: d, anchorTimestampSigma: 0))
        let c = Collect()
        session.delegate = c
        session.run(DLTDOAConfiguration(networkIdentifier: 0x1234))
        session.advance(to: 4)
        var assembler = TDoARoundAssembler()
        assembler.correctsClockOffset = correct
        var errors: [Double] = []
        for m in c.all {
            for round in assembler.add(m) {
                let phone = d.receiverPosition(at: round.time)
                for diff in round.differences {
                    errors.append(diff.rangeDifference - ((diff.position - phone).length - (round.referencePosition - phone).length))
                }
            }
        }
        return rmse(errors)
    }

    /// The phone's 40-bit counter wraps in the middle of a round (3.5 ms after a Poll), and an
    /// anchor's between its Poll and Final: every fix stays good.
    @Test func counterWrapMidRound() {
        var (d, o) = Self.cleanRoom()
        let wrapAt = 1.0035  // block 5 starts at 1.0 s; its Poll leaves then, Responses follow each ms
        let ticks = UInt64((wrapAt * UWBTimestamp.ticksPerSecond * (1 + d.receiverClockPPM * 1e-6)).rounded())
        d.receiverClockOffsetTicks = (1 << 40) - ticks
        d.anchors[0].clockOffsetTicks = (1 << 40) - UInt64(2.006 * UWBTimestamp.ticksPerSecond * (1 + d.anchors[0].clockPPM * 1e-6))
        let run = DLTDOASimulation.run(d, o)
        let around = run.records.filter { abs($0.fix.time - 1.0) < 0.05 || abs($0.fix.time - 2.0) < 0.05 }
        #expect(around.count == 2)
        #expect(around.allSatisfy { $0.fixError < 0.5 })
        #expect(run.records.allSatisfy { $0.fixError < 1.0 })
    }

    /// A neighbouring deployment (another network identifier, same channel and round numbers)
    /// next door: its frames are heard and dropped, and the fixes do not change.
    @Test func otherNetworkIgnored() {
        let (d, o) = Self.cleanRoom()
        var both = d
        for (i, a) in d.anchors.enumerated() {
            both.anchors.append(DLTDOADeployment.Anchor(address: a.address, position: a.position + Vector3(12, 0, 0), networkIdentifier: 0x9999,
                                                        cluster: a.cluster, isInitiator: a.isInitiator, clockPPM: Double(i) - 4))
        }
        let alone = DLTDOASimulation.run(d, o)
        let neighbours = DLTDOASimulation.run(both, o)
        #expect(neighbours.otherNetworkFrames >= 800)
        #expect(alone.otherNetworkFrames == 0)
        let a = Self.rmse(alone.records.map(\.fixError)), b = Self.rmse(neighbours.records.map(\.fixError))
        #expect(neighbours.records.count == alone.records.count)
        #expect(b < 1.3 * a)
    }

    /// One anchor behind an obstacle (+3 m on its first path to the phone everywhere): it is
    /// rejected in every epoch and the error stays near the clean one; without rejection it
    /// would drag every fix (held to the room's volume, but metres off). The figures of docs/commands/tdoa.md:
    /// RMSE 0.20 m against 0.17 m clean, 1.41 m without rejection; every one of the 100 epochs
    /// has its fix (a round whose Poll was lost is referenced to its first Response).
    @Test func nlosAnchorRejected() {
        var (d, o) = Self.cleanRoom()
        let hidden = d.anchors[2].position
        d.zones = [DLTDOADeployment.NLOSZone(minimum: hidden - Vector3(0.4, 0.4, 0.4), maximum: hidden + Vector3(0.4, 0.4, 0.4), bias: 3)]
        let clean = DLTDOASimulation.run(Self.cleanRoom().0, o)
        let robust = DLTDOASimulation.run(d, o)
        o.rejectsOutliers = false
        let naive = DLTDOASimulation.run(d, o)
        let rejected = robust.records.filter { !$0.fix.fix.rejectedAnchors.isEmpty }.count
        let c = Self.rmse(clean.records.map(\.fixError)), r = Self.rmse(robust.records.map(\.fixError)), n = Self.rmse(naive.records.map(\.fixError))
        #expect(robust.records.count == 100)
        #expect(rejected == robust.records.count)
        #expect((r * 100).rounded() == 20)
        #expect((c * 100).rounded() == 17)
        #expect((n * 100).rounded() == 141)
    }

    /// Discovery over Wi-Fi works too; a session for a network nobody advertises never ranges.
    @Test func discovery() {
        var (d, o) = Self.cleanRoom()
        d.path = [DLTDOADeployment.PathPoint(time: 0, position: Vector3(5, 4, 1.2)), DLTDOADeployment.PathPoint(time: 3, position: Vector3(5, 4, 1.2))]
        o.discoveryMethod = .wifi
        let wifi = DLTDOASimulation.run(d, o)
        #expect(wifi.discoveryTime != nil && wifi.records.count >= 13)
        o.networkIdentifier = 0x4321
        let unknown = DLTDOASimulation.run(d, o)
        #expect(unknown.discoveryTime == nil && unknown.measurements == 0)
    }
}

/// The DL-TDOA session's lifecycle: authorization, the 30 s background limit, the foreground.
struct DLTDOASessionTests {
    final class Delegate: DLTDOASessionDelegate {
        var measurements: [DLTDOAMeasurement] = []
        var errors: [(NearbyError, Double)] = []
        func session(_ session: DLTDOASession, didUpdateDLTDOA measurements: [DLTDOAMeasurement]) { self.measurements += measurements }
        func session(_ session: DLTDOASession, didInvalidateWith error: NearbyError) { errors.append((error, session.time)) }
    }

    static func session(authorization: LocationAuthorization, farAway: Bool = false) -> (DLTDOASession, Delegate) {
        var d = DLTDOADeployment.defaultRoom()
        let place = farAway ? Vector3(500, 500, 1.2) : Vector3(5, 4, 1.2)
        d.path = [DLTDOADeployment.PathPoint(time: 0, position: place), DLTDOADeployment.PathPoint(time: 60, position: place)]
        let s = DLTDOASession(air: DLTDOAAir(deployment: d), locationAuthorization: authorization)
        let delegate = Delegate()
        s.delegate = delegate
        return (s, delegate)
    }

    /// A background session (region entry, "always" authorization) ranges for 30 s, then ends
    /// with a resource-usage timeout; one that finds no anchor ends the same way, having heard nothing.
    @Test func backgroundTimeout() {
        let (s, d) = Self.session(authorization: .always)
        s.run(DLTDOAConfiguration(networkIdentifier: 0x1234), inBackground: true)
        for t in stride(from: 1.0, through: 40, by: 1) { s.advance(to: t) }
        #expect(d.errors.count == 1 && d.errors[0].0 == .resourceUsageTimeout && d.errors[0].0.code == -5886)
        #expect(abs(d.errors[0].1 - 30) < 1e-9)
        #expect(!d.measurements.isEmpty && d.measurements.allSatisfy { $0.hostTime <= 30 })

        let (far, fd) = Self.session(authorization: .always, farAway: true)
        far.run(DLTDOAConfiguration(networkIdentifier: 0x1234), inBackground: true)
        for t in stride(from: 1.0, through: 40, by: 1) { far.advance(to: t) }
        #expect(fd.measurements.isEmpty && far.discoveryTime == nil)
        #expect(fd.errors.map(\.0) == [.resourceUsageTimeout])
    }

    /// Coming to the foreground invalidates a background session; a new one then runs unlimited.
    @Test func foregroundInvalidatesBackgroundSession() {
        let (s, d) = Self.session(authorization: .always)
        s.run(DLTDOAConfiguration(networkIdentifier: 0x1234), inBackground: true)
        s.advance(to: 5)
        s.applicationWillEnterForeground()
        #expect(d.errors.map(\.0) == [.invalidated] && s.state == .invalidated)
        let (fresh, fd) = Self.session(authorization: .whenInUse)
        fresh.run(DLTDOAConfiguration(networkIdentifier: 0x1234))
        for t in stride(from: 1.0, through: 45, by: 1) { fresh.advance(to: t) }
        #expect(fd.errors.isEmpty && fresh.state == .ranging && fd.measurements.contains { $0.hostTime > 40 })
    }

    /// Location authorization: denied stops the session with userDidNotAllow at once; "when in
    /// use" cannot start a background session; revoking it mid-session stops it.
    @Test func authorization() {
        let (denied, dd) = Self.session(authorization: .denied)
        denied.run(DLTDOAConfiguration(networkIdentifier: 0x1234))
        #expect(dd.errors.map(\.0) == [.userDidNotAllow] && dd.errors[0].0.code == -5884)
        let (inUse, du) = Self.session(authorization: .whenInUse)
        inUse.run(DLTDOAConfiguration(networkIdentifier: 0x1234), inBackground: true)
        #expect(du.errors.map(\.0) == [.userDidNotAllow])
        let (revoked, dr) = Self.session(authorization: .whenInUse)
        revoked.run(DLTDOAConfiguration(networkIdentifier: 0x1234))
        revoked.advance(to: 2)
        let heard = dr.measurements.count
        revoked.setLocationAuthorization(.denied)
        revoked.advance(to: 4)
        #expect(heard > 0 && dr.measurements.count == heard && dr.errors.map(\.0) == [.userDidNotAllow])
        let (none, dn) = Self.session(authorization: .whenInUse)
        let unsupported = DLTDOASession(air: DLTDOAAir(deployment: .defaultRoom()), supportsDLTDOAMeasurement: false)
        unsupported.delegate = dn
        unsupported.run(DLTDOAConfiguration(networkIdentifier: 1))
        #expect(dn.errors.map(\.0) == [.unsupportedPlatform])
        _ = none
    }

    /// Measurements carry what iOS gives: types in round order, the cluster initiator, the
    /// anchor's coordinates in metres, a responder's clock offset, times from the raw values.
    @Test func measurementFields() throws {
        let (s, d) = Self.session(authorization: .whenInUse)
        s.run(DLTDOAConfiguration(networkIdentifier: 0x1234))
        s.advance(to: 0.5)
        let first = try #require(d.measurements.first)
        #expect(first.measurementType == .poll && first.address == 0x0A01 && first.clusterInitiatorAddress == 0x0A01)
        #expect(first.coordinates == Vector3(0, 0, 2.8) && first.coordinatesType == .relative)
        let round = Array(d.measurements.prefix(9))
        #expect(round.map(\.measurementType) == [.poll] + Array(repeating: .response, count: 7) + [.final])
        let responses = round.filter { $0.measurementType == .response }
        #expect(responses.allSatisfy { $0.clusterInitiatorAddress == 0x0A01 && $0.responderClockFrequencyOffset != nil })
        // Anchor 0x0A02 runs at −18.5 ppm, the initiator at +12: it runs fewer cycles, a positive offset of ~30.5 ppm.
        let a2 = try #require(responses.first { $0.address == 0x0A02 })
        #expect(abs(a2.responderClockFrequencyOffset! - 30.5e-6) < 0.5e-6)
        #expect(abs(first.transmitTime - Double(first.rawTransmitTime) / UWBTimestamp.ticksPerSecond) < 1e-15)
        #expect(abs(first.carrierFrequencyOffset - ((1 - 6.5e-6) / (1 + 12e-6) - 1)) < 1e-9)
    }
}
