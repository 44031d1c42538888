import Foundation
import PhoneEmulation

/// Runs a `NearbyScenario` as an app would live it: connect the accessory, run a
/// `NearbySession` with camera assistance as asked, give the motion hint, go to the background
/// and back and change the radio's load at the scenario's times, and record every update next
/// to the truth. Deterministic for the scenario's seeds.
public enum NearbySimulation {
    /// What happened in a run.
    public struct Run: Sendable {
        public var updates: [NearbyUpdateRecord]
        /// Times (s) the session was suspended and resumed.
        public var suspensions: [Double]
        public var suspensionEnds: [Double]
        /// Why the session was invalidated, if it was.
        public var invalidation: NearbyError?
        /// Procedures per second over each stretch of constant load (time, rate).
        public var rates: [(time: Double, rate: Double)]
        /// The fusion's convergence as it changed (time, status).
        public var convergence: [(time: Double, status: NearbyAlgorithmConvergence)]
    }

    public static func run(_ scenario: NearbyScenario) -> Run {
        let central = CentralManager(hasChannelSoundingHardware: scenario.phoneSupportsChannelSounding)
        let accessory = Peripheral(name: "Reflector", setup: scenario.setup)
        central.connect(accessory)
        let session = NearbySession(central: central, world: scenario.world, seed: scenario.seed)
        let recorder = Recorder(world: scenario.world)
        session.delegate = recorder
        session.run(NearbyAccessoryConfiguration(bluetoothChannelSoundingIdentifier: accessory.identifier,
                                                 isCameraAssistanceEnabled: scenario.cameraAssistance))
        if let hint = scenario.motionHint, let token = session.discoveryToken { session.updateMotionState(hint, forObjectWith: token) }
        var rates: [(time: Double, rate: Double)] = [(0, session.measurementRate)]

        // Everything that changes, in time order; the session runs between changes.
        var changes: [(time: Double, apply: (NearbySession) -> Void)] = []
        for b in scenario.background {
            changes.append((b.start, { $0.setApplicationState(.background) }))
            changes.append((b.end, { $0.setApplicationState(.foreground) }))
        }
        for c in scenario.loadChanges { changes.append((c.time, { $0.setCoexistenceLoad(c.load) })) }
        changes.sort { $0.time < $1.time }
        for change in changes where change.time < scenario.duration {
            session.advance(to: change.time)
            change.apply(session)
            if session.state == .running, rates.last?.rate != session.measurementRate { rates.append((change.time, session.measurementRate)) }
        }
        session.advance(to: scenario.duration)
        session.invalidate()
        return Run(updates: recorder.updates, suspensions: recorder.suspensions, suspensionEnds: recorder.suspensionEnds,
                   invalidation: recorder.invalidation, rates: rates, convergence: recorder.convergence)
    }

    private final class Recorder: NearbySessionDelegate {
        let world: NearbyWorld
        var updates: [NearbyUpdateRecord] = []
        var suspensions: [Double] = []
        var suspensionEnds: [Double] = []
        var invalidation: NearbyError?
        var convergence: [(time: Double, status: NearbyAlgorithmConvergence)] = []

        init(world: NearbyWorld) { self.world = world }

        func session(_ session: NearbySession, didUpdateAlgorithmConvergence c: NearbyAlgorithmConvergence, for object: NearbyObject?) {
            convergence.append((object?.time ?? session.time, c))
        }

        func session(_ session: NearbySession, didUpdate nearbyObjects: [NearbyObject]) {
            for o in nearbyObjects {
                let t = o.time
                let m = session.lastMeasurement
                var phase: NearbyUpdateRecord.PhaseRecord?
                if let observation = m?.phase, let since = m?.phaseSince, let believed = m?.cameraPose?.position {
                    phase = NearbyUpdateRecord.PhaseRecord(observation: observation, believedPosition: believed,
                                                           truePositionBefore: world.phone.pose(at: since).position)
                }
                updates.append(NearbyUpdateRecord(object: o, trueDistance: world.distance(at: t), trueDirection: world.direction(at: t),
                                                  phonePose: world.phone.pose(at: t), accessoryPosition: world.accessory.position(at: t),
                                                  rawDistance: m?.rawDistance, fusedDirection: m?.fused?.direction, phase: phase))
            }
        }

        func session(_ session: NearbySession, didInvalidateWith error: NearbyError) { invalidation = error }
        func sessionWasSuspended(_ session: NearbySession) { suspensions.append(session.time) }
        func sessionSuspensionEnded(_ session: NearbySession) { suspensionEnds.append(session.time) }
    }
}
