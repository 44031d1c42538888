import EmulatorMath
import Foundation
import PhoneEmulation
import RangingEstimation
import ReflectorFirmware

/// Distance and direction to a Channel Sounding accessory, modelled on iOS 27's `NISession`
/// run with a `NearbyAccessoryConfiguration`. Under it: Channel Sounding with the connected
/// `Peripheral`'s emulated pair (real HCI, controllers and Air); the separation follows
/// `world`, and the phone's camera tracks the phone's pose with drift. Each procedure gives a
/// distance (smoothed and outlier-gated, nil when the measurement failed); with camera
/// assistance, `DirectionFusion` turns distances taken from different phone positions into
/// the accessory's position, reported as a direction once it is confident.
///
/// Time is virtual: `advance(to:)` turns the run loop, calling the delegate synchronously. The
/// app's lifecycle and the radio's load are the emulator's inputs: `setApplicationState` pauses
/// ranging in the background as iOS 27 does, `setCoexistenceLoad` lowers the procedure rate.
public final class NearbySession {
    public enum State: Sendable, Equatable {
        /// Not run yet.
        case idle
        case running
        /// Paused by the app (`pause()`); `run` or `resume` continues.
        case paused
        /// Suspended while the app is in the background; resumes in the foreground.
        case suspended
        case invalidated
    }

    public weak var delegate: NearbySessionDelegate?
    public let central: CentralManager
    public let world: NearbyWorld
    public let deviceCapabilities: NearbyDeviceCapabilities
    public private(set) var state = State.idle
    public private(set) var configuration: NearbyAccessoryConfiguration?
    public private(set) var applicationState = ApplicationState.foreground
    public private(set) var coexistenceLoad = CoexistenceLoad.none
    public private(set) var motionState = MotionActivityState.unknown
    /// Estimator applied to each procedure's tones.
    public var estimator: any DistanceEstimator = MultipathFitEstimator()
    /// The last procedure's raw estimate and the pose the camera reported (for tools).
    public private(set) var lastMeasurement: NearbyMeasurement?

    private var runner: ChannelSoundingRunner?
    private var baseParameters: ProcedureParameters?
    /// The connection interval of the pair, µs (procedure intervals are whole connection events).
    private var connectionEventMicroseconds: UInt64 = 7_500
    private var tracker = DistanceTracker()
    private var camera: CameraTracking
    private var fusion: DirectionFusion
    private var rangeNoise = RangeNoiseEstimate()
    private var phaseBaseline = PhaseBaseline()
    private var lastConvergence = NearbyAlgorithmConvergence.unknown
    /// How far the camera has seen the phone move from where it started, metres.
    private var travelled = 0.0
    private var firstCameraPosition: Vector3?

    /// A session on `central`'s phone in `world`; `seed` drives the camera's drift and the fusion.
    public init(central: CentralManager, world: NearbyWorld, seed: UInt64 = 1) {
        self.central = central
        self.world = world
        deviceCapabilities = NearbyDeviceCapabilities(supportsBluetoothChannelSounding: central.hasChannelSoundingHardware)
        camera = CameraTracking(seed: seed &* 7 &+ 3)
        fusion = DirectionFusion(seed: seed &* 11 &+ 5)
    }

    /// World time, seconds.
    public var time: Double { runner?.time ?? 0 }

    /// The token of the accessory being ranged.
    public var discoveryToken: NearbyDiscoveryToken? { configuration.map { NearbyDiscoveryToken(identifier: $0.bluetoothChannelSoundingIdentifier) } }

    /// Starts ranging the accessory, or continues a paused session with the same accessory.
    /// Problems invalidate the session through the delegate.
    public func run(_ configuration: NearbyAccessoryConfiguration) {
        switch state {
        case .invalidated: return invalidate(with: .invalidated)
        case .paused, .suspended, .running:
            guard configuration.bluetoothChannelSoundingIdentifier == self.configuration?.bluetoothChannelSoundingIdentifier else {
                return invalidate(with: .invalidConfiguration("the session already ranges another accessory; use a new session"))
            }
            self.configuration = configuration
            if state == .paused { resumeProcedures(to: .running) }
            return
        case .idle: break
        }
        guard deviceCapabilities.supportsBluetoothChannelSounding else { return invalidate(with: .unsupportedPlatform) }
        let ids = [configuration.bluetoothChannelSoundingIdentifier] + (configuration.previousBluetoothIdentifier.map { [$0] } ?? [])
        guard let peripheral = central.retrievePeripherals(withIdentifiers: ids).first else {
            return invalidate(with: .invalidConfiguration("no accessory with identifier \(configuration.bluetoothChannelSoundingIdentifier) is known to this phone"))
        }
        guard peripheral.isConnected else { return invalidate(with: .invalidConfiguration("accessory '\(peripheral.name)' is not connected")) }
        self.configuration = configuration
        var setup = peripheral.setup
        // The separation follows the world, well past any session length; the controllers'
        // clock starts with the world's, so world time is the link's clock.
        setup.scenario.geometry.trajectory = world.distanceProfile(from: 0, to: Self.profileSpan)
        connectionEventMicroseconds = UInt64(max(setup.connectionInterval, 6)) * 1250
        let made = ChannelSoundingRunner(setup: setup, estimator: estimator)
        if let e = made.setupFailure { return invalidate(with: .channelSoundingFailed(e.description)) }
        runner = made
        baseParameters = made.parameters
        state = .running
        if applicationState == .background { suspend() }
        if coexistenceLoad != .none { applyRate() }
    }

    /// Continues after `pause()`.
    public func resume() {
        guard let configuration, state == .paused else { return }
        run(configuration)
    }

    /// Pauses ranging (procedures disabled); `run` or `resume` continues.
    public func pause() {
        guard state == .running else { return }
        runner?.pause()
        state = .paused
    }

    /// Ends the session for good; the delegate is not called, as with `NISession.invalidate()`.
    public func invalidate() {
        guard state != .invalidated else { return }
        runner?.stop()
        runner = nil
        state = .invalidated
    }

    /// The app's hint about how the accessory moves; better direction when it is right.
    public func updateMotionState(_ motionState: MotionActivityState, forObjectWith token: NearbyDiscoveryToken) {
        guard token == discoveryToken else { return }
        self.motionState = motionState
        fusion.setMotionState(motionState)
        // Changes over a stretch in which the accessory may have moved mean nothing.
        if motionState != .stationary { phaseBaseline.reset() }
    }

    /// The emulated app goes to the background (ranging suspends) or the foreground (resumes).
    public func setApplicationState(_ newState: ApplicationState) {
        guard newState != applicationState else { return }
        applicationState = newState
        switch (newState, state) {
        case (.background, .running), (.background, .paused): suspend()
        case (.foreground, .suspended):
            resumeProcedures(to: .running)
            if state == .running { delegate?.sessionSuspensionEnded(self) }
        default: break
        }
    }

    /// Other Bluetooth and Wi-Fi activity: the phone's host sets a procedure interval
    /// `load.rateDivisor` times longer (disable, set parameters, enable).
    public func setCoexistenceLoad(_ load: CoexistenceLoad) {
        guard load != coexistenceLoad else { return }
        coexistenceLoad = load
        if state == .running { applyRate() }
    }

    /// Procedures per second with the current load.
    public var measurementRate: Double {
        guard let p = runner?.parameters else { return 0 }
        return 1e6 / Double(procedureIntervalMicroseconds(p))
    }

    /// Runs the virtual clock to world time `time`, seconds: every procedure due by then runs
    /// and reaches the delegate as an update.
    public func advance(to time: Double) {
        while state == .running, var r = runner, let next = r.nextProcedureTime, next <= time {
            let turn = r.next()
            runner = r
            switch turn {
            case let .procedure(_, start, tones, _, estimate)?: report(at: start, tones: tones, estimate: estimate)
            case .ended(let error?)?: return invalidate(with: .channelSoundingFailed(error.description))
            case .ended(nil)?: return invalidate(with: .accessoryStoppedRanging)
            case nil: return invalidate(with: .accessoryStoppedRanging)
            }
        }
        if runner != nil, time > self.time { runner!.idle(until: time) }
    }

    // MARK: Private

    /// How far ahead the Air's distance profile reaches, seconds; past it the separation holds.
    static let profileSpan = 600.0
    /// The fusion never trusts a distance more than this, metres: below it, the phone's
    /// antenna position and the camera's drift matter more than the radio.
    static let minimumRangeSigma = 0.03

    private func report(at t: Double, tones: ToneSet, estimate: DistanceEstimate?) {
        guard let token = discoveryToken, let configuration else { return }
        let rate = measurementRate
        let smoothed = tracker.update(estimate?.distance, at: t)
        var direction: Vector3?
        var horizontalAngle: Double?
        var pose: Pose?
        var fused: DirectionEstimate?
        var vertical = VerticalDirectionEstimate.unknown
        var convergence = NearbyAlgorithmConvergence.unknown
        var phase: DirectionFusion.PhaseObservation?
        var phaseSince: Double?
        if configuration.isCameraAssistanceEnabled {
            let seen = camera.pose(trueP: world.phone.pose(at: t), at: t)
            rangeNoise.add(estimate?.distance)
            // Until the noise is known, assume a cluttered room's (as the distance tracker does).
            fusion.rangeSigma = max(Self.minimumRangeSigma, rangeNoise.sigma() ?? tracker.measurementSigma)
            // A still accessory: the carrier phase's change over the last half second, too.
            if motionState == .stationary, let r = estimate?.distance {
                if let measured = phaseBaseline.change(to: tones, at: t, distance: r) {
                    phase = DirectionFusion.PhaseObservation(phase: measured.change.phase, wavenumber: measured.change.wavenumber,
                                                             from: measured.from.position)
                    phaseSince = measured.from.time
                }
                phaseBaseline.add(PhaseBaseline.Entry(time: t, position: seen.position, distance: r, tones: tones))
            }
            fusion.update(range: estimate?.distance, pose: seen, time: t, phase: phase)
            fused = fusion.estimate(from: seen)
            direction = fused.flatMap { $0.isConfident ? $0.direction : nil }
            horizontalAngle = fused.flatMap { $0.isHorizontalConfident ? $0.azimuth : nil }
            vertical = fusion.verticalDirection(from: seen)
            pose = seen
            if let start = firstCameraPosition { travelled = max(travelled, (seen.position - start).length) } else { firstCameraPosition = seen.position }
            convergence = Self.convergence(fused, travelled: travelled)
        }
        lastMeasurement = NearbyMeasurement(time: t, rawDistance: estimate?.distance, cameraPose: pose, fused: fused,
                                            phase: phase, phaseSince: phaseSince)
        let object = NearbyObject(discoveryToken: token, distance: estimate == nil ? nil : smoothed, direction: direction,
                                  horizontalAngle: horizontalAngle, verticalDirectionEstimate: vertical, time: t, measurementRate: rate)
        if configuration.isCameraAssistanceEnabled, convergence != lastConvergence {
            lastConvergence = convergence
            delegate?.session(self, didUpdateAlgorithmConvergence: convergence, for: object)
        }
        delegate?.session(self, didUpdate: [object])
    }

    /// Converged when the direction passes its gate; otherwise what is missing: movement (the
    /// phone stayed within 10 cm), a sideways sweep (no horizontal angle), or a vertical one.
    static func convergence(_ e: DirectionEstimate?, travelled: Double) -> NearbyAlgorithmConvergence {
        guard let e else { return .unknown }
        if e.isConfident { return .converged }
        if travelled < 0.1 { return .notConverged([.insufficientMovement]) }
        return .notConverged([e.isHorizontalConfident ? .insufficientVerticalSweep : .insufficientHorizontalSweep])
    }

    private func suspend() {
        runner?.pause()
        state = .suspended
        delegate?.sessionWasSuspended(self)
    }

    private func resumeProcedures(to newState: State) {
        guard var r = runner else { return }
        do {
            try r.resume(parameters: currentParameters())
        } catch {
            runner = r
            return invalidate(with: .channelSoundingFailed(error.description))
        }
        runner = r
        state = newState
    }

    /// Disable, set the parameters for the current load, enable.
    private func applyRate() {
        runner?.pause()
        resumeProcedures(to: .running)
    }

    /// The base parameters with Min_Procedure_Interval stretched by the load's divisor.
    private func currentParameters() -> ProcedureParameters {
        guard var p = baseParameters else { preconditionFailure("parameters before set-up") }
        let baseEvents = procedureIntervalMicroseconds(p) / connectionEventMicroseconds
        p.minProcedureInterval = UInt16(clamping: baseEvents * UInt64(coexistenceLoad.rateDivisor))
        p.maxProcedureInterval = max(p.maxProcedureInterval, p.minProcedureInterval)
        return p
    }

    /// The interval the controllers agree on for `p`: enough connection events for
    /// Max_Procedure_Len, at least Min_Procedure_Interval (as `LoopbackSetup` computes it).
    private func procedureIntervalMicroseconds(_ p: ProcedureParameters) -> UInt64 {
        let e = connectionEventMicroseconds
        let needed = (UInt64(p.maxProcedureLengthMicroseconds) + e - 1) / e
        return max(UInt64(p.minProcedureInterval), needed) * e
    }

    private func invalidate(with error: NearbyError) {
        runner?.stop()
        runner = nil
        state = .invalidated
        delegate?.session(self, didInvalidateWith: error)
    }
}

/// What the session measured at one procedure, beyond what the app gets (for tools and tests).
public struct NearbyMeasurement: Sendable, Equatable {
    public var time: Double
    /// The procedure's raw distance estimate (nil: the measurement failed).
    public var rawDistance: Double?
    /// The pose the camera reported (nil without camera assistance).
    public var cameraPose: Pose?
    /// The fusion's belief, confident or not (nil without camera assistance or before a distance).
    public var fused: DirectionEstimate?
    /// The carrier phase's change the fusion took with this procedure (nil: none), and the time
    /// of the earlier procedure it was measured from.
    public var phase: DirectionFusion.PhaseObservation?
    public var phaseSince: Double?
}
