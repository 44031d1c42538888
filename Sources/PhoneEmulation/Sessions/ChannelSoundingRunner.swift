import BLEHost
import Foundation
import HCITransport
import RadioWorld
import RangingEstimation
import ReflectorFirmware

/// The phone's side of a running Channel Sounding session, below any app API: the emulated
/// pair built from a `LoopbackSetup`, set up over HCI, then one procedure per turn, each
/// turned into tones and a distance estimate. Core Bluetooth's `Peripheral` and Nearby
/// Interaction's `NearbySession` both sit on it. Pausing and changing the rate go through the
/// phone's host as a real one would: procedures disabled, new parameters, enabled again.
package struct ChannelSoundingRunner {
    /// What one turn produced.
    package enum Turn {
        /// A procedure ran: its counter, the time of its middle (s), the tones, and the raw
        /// estimate (nil when too few usable tones: the measurement failed).
        case procedure(counter: UInt16, time: Double, tones: ToneSet, roundTrips: RoundTripTimes, estimate: DistanceEstimate?)
        /// Procedures stopped: disabled (nil) or failed.
        case ended(ChannelSoundingError?)
    }

    private(set) var link: LoopbackLink<AirRadio, AirRadio>
    let estimator: any DistanceEstimator
    /// Whether procedures are paused (disabled by the phone's host).
    private(set) var isPaused = false

    /// Why set-up failed, if it did (the link, with its capture, stays for inspection).
    package private(set) var setupFailure: ChannelSoundingError?

    /// Builds the pair and runs the set-up (capabilities, security, configuration, enable).
    package init(setup: LoopbackSetup, estimator: any DistanceEstimator) {
        link = setup.makeLink()
        self.estimator = estimator
        for output in link.settle() {
            if case .failed(let e) = output { setupFailure = .configurationFailed(e) }
        }
        if setupFailure == nil, !link.initiatorHost.isRanging {
            setupFailure = .configurationFailed(.procedureFailed(event: .proceduresEnabled, status: .unspecifiedError))
        }
        isPaused = setupFailure != nil
    }

    /// The virtual clock, seconds.
    package var time: Double { Double(link.clock) / 1e6 }

    /// When the next procedure starts, seconds (nil while paused); now, once the link is lost
    /// (the next turn reports it).
    package var nextProcedureTime: Double? {
        guard !isPaused else { return nil }
        if link.linkLoss != nil { return time }
        guard let start = link.initiatorController.nextProcedureStart else { return nil }
        return Double(start) / 1e6
    }

    /// The multipath the air drew for the procedure just run (the truth a bound is computed at).
    package var channelRealization: ChannelRealization { link.initiatorRadio.air.realization }

    /// The procedure parameters in force.
    package var parameters: ProcedureParameters { link.initiatorHost.setup.parameters }

    /// Runs the next procedure (nil while paused or when none is due).
    package mutating func next() -> Turn? {
        guard !isPaused else { return nil }
        if let ended = linkLost() { return ended }
        guard let start = link.initiatorController.nextProcedureStart, let outputs = link.runProcedure() else { return nil }
        if let ended = linkLost() { return ended }
        for output in outputs {
            switch output {
            case let .procedure(p, reflector):
                let tones = ToneSetBuilder.tones(initiator: p.steps, reflector: reflector, antennaPaths: p.antennaPaths,
                                                 inlinePCT: link.initiatorHost.usesInlinePCT)
                let roundTrips = RoundTripTimeBuilder.times(initiator: p.steps, reflector: reflector)
                // The distance averages the steps, so it belongs to the procedure's middle.
                let middle = Double(start + link.clock) / 2e6
                return .procedure(counter: p.procedureCounter, time: middle, tones: tones, roundTrips: roundTrips,
                                  estimate: estimator.estimate(tones, roundTrips: roundTrips))
            case .failed(let e): return .ended(.configurationFailed(e))
            case .disabled: return .ended(nil)
            case .enabled, .needsRangingData, .connected, .notIOSCompliant, .procedureLost, .proceduresMissed, .deviation: break
            }
        }
        return nil
    }

    /// The turn that ends the session when the link went down (the hosts have heard of it).
    private mutating func linkLost() -> Turn? {
        guard let reason = link.linkLoss else { return nil }
        _ = link.settle()
        isPaused = true
        return .ended(.peripheralDisconnected(reason: reason))
    }

    /// Disables procedures (LE CS Procedure Enable, Enable = 0) and waits for the controller.
    package mutating func pause() {
        guard !isPaused else { return }
        _ = link.stop()
        isPaused = true
    }

    /// Lets the virtual clock run to `time` (s) without procedures, as while paused.
    package mutating func idle(until time: Double) {
        link.advance(to: UInt64((time * 1e6).rounded()))
    }

    /// Enables procedures again with `parameters`. Throws when the controller refuses.
    package mutating func resume(parameters: ProcedureParameters) throws(ChannelSoundingError) {
        guard isPaused else { return }
        if let reason = link.linkLoss { throw .peripheralDisconnected(reason: reason) }
        guard link.initiatorHost.restart(parameters: parameters) else {
            throw .configurationFailed(link.initiatorHost.failure ?? .procedureFailed(event: .proceduresEnabled, status: .commandDisallowed))
        }
        for output in link.settle() {
            if case .failed(let e) = output { throw .configurationFailed(e) }
        }
        guard link.initiatorHost.isRanging else {
            throw .configurationFailed(.procedureFailed(event: .proceduresEnabled, status: .unspecifiedError))
        }
        isPaused = false
    }

    /// Stops procedures for good.
    package mutating func stop() {
        if !isPaused { _ = link.stop() }
        isPaused = true
    }
}
