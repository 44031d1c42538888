import Foundation
import HCITransport
import RadioWorld

/// A connected accessory as an app sees it, modelled on `CBPeripheral` with iOS 27's
/// `startChannelSoundingSession` / `cancelChannelSoundingSession`. Behind it stand the whole
/// emulated pair: the phone's host and controller, the accessory's reflector firmware, and the
/// air, built from a `LoopbackSetup`. Time is virtual: `processNextProcedure()` is the run
/// loop turning, one procedure per call, with delegate callbacks made synchronously.
public final class Peripheral {
    public let identifier: UUID
    public let name: String
    public weak var delegate: PeripheralDelegate?
    /// The emulated pair, as it will be built when a session starts.
    public var setup: LoopbackSetup

    var central: CentralManager?
    public var isConnected: Bool { central != nil }

    private var runner: ChannelSoundingRunner?
    private var configuration: ChannelSoundingSessionConfiguration?
    private var smoother = DistanceSmoother()
    private var completed = 0
    /// The last procedure's full report (raw estimate, smoothed distance, tones).
    public private(set) var lastReport: ChannelSoundingReport?
    /// How many reports there have been (to tell a new `lastReport` from the previous one).
    public private(set) var reportCount = 0
    /// The phone's HCI traffic of the last session, when `setup.recordHCI` is on.
    public private(set) var capturedHCI: [BTSnoopRecord]?

    public init(name: String, setup: LoopbackSetup, identifier: UUID = UUID()) {
        self.name = name
        self.setup = setup
        self.identifier = identifier
    }

    /// Whether a session is running.
    public var isSessionRunning: Bool { runner != nil }

    /// The link of the running session (for tools that record or inspect it).
    public var sessionLink: LoopbackLink<AirRadio, AirRadio>? { runner?.link }

    /// Starts repeating procedures. Set-up (capabilities, security, configuration) happens now;
    /// failures are reported to `peripheral(_:didCompleteChannelSoundingSession:)`.
    public func startChannelSoundingSession(_ configuration: ChannelSoundingSessionConfiguration) {
        guard let central else { return finish(.notConnected) }
        guard central.supports(.channelSounding) else { return finish(.notSupported) }
        guard runner == nil else { return delegate?.peripheral(self, didCompleteChannelSoundingSession: .sessionInProgress) ?? () }
        let newRunner = ChannelSoundingRunner(setup: setup, estimator: configuration.estimator)
        if let error = newRunner.setupFailure {
            capturedHCI = newRunner.link.capture
            return finish(error)
        }
        runner = newRunner
        self.configuration = configuration
        smoother = DistanceSmoother()
        completed = 0
    }

    /// Stops the session; the delegate hears `didCompleteChannelSoundingSession` with no error.
    public func cancelChannelSoundingSession() {
        guard runner != nil else { return }
        runner!.stop()
        finish(nil)
    }

    /// Runs the next procedure and reports it to the delegate. Returns false when no session runs.
    @discardableResult
    public func processNextProcedure() -> Bool {
        guard var r = runner, let configuration else { return false }
        let turn = r.next()
        runner = r
        switch turn {
        case nil, .ended(nil)?:
            finish(nil)
            return false
        case .ended(let error?)?:
            finish(error)
            return false
        case let .procedure(counter, time, tones, roundTrips, estimate)?:
            let update = smoother.update(tones: tones, estimate: estimate, at: time, estimator: r.estimator)
            let smoothed = update.distance
            lastReport = ChannelSoundingReport(procedureCounter: counter, time: time, estimate: estimate,
                                               smoothedDistance: estimate == nil ? nil : smoothed, tones: tones, roundTrips: roundTrips,
                                               stillEstimate: update.still, stillProcedures: update.stillProcedures)
            completed += 1
            reportCount += 1
            if estimate != nil, let d = smoothed {
                delegate?.peripheral(self, didReceive: ChannelSoundingProcedureResults(distance: d), error: nil)
            } else {
                delegate?.peripheral(self, didReceive: nil, error: .measurementFailed)
            }
        }
        if let limit = configuration.procedureLimit, completed >= limit { cancelChannelSoundingSession() }
        return true
    }

    func disconnected() {
        central = nil
        if runner != nil { finish(.notConnected) }
    }

    private func finish(_ error: ChannelSoundingError?) {
        if let c = runner?.link.capture { capturedHCI = c }
        runner = nil
        configuration = nil
        delegate?.peripheral(self, didCompleteChannelSoundingSession: error)
    }
}
