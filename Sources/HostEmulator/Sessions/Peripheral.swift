import Foundation
import HCITransport

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

    private var link: LoopbackLink<AirRadio, AirRadio>?
    private var configuration: ChannelSoundingSessionConfiguration?
    private var tracker = DistanceTracker()
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
    public var isSessionRunning: Bool { link != nil }

    /// The link of the running session (for tools that record or inspect it).
    public var sessionLink: LoopbackLink<AirRadio, AirRadio>? { link }

    /// Starts repeating procedures. Set-up (capabilities, security, configuration) happens now;
    /// failures are reported to `peripheral(_:didCompleteChannelSoundingSession:)`.
    public func startChannelSoundingSession(_ configuration: ChannelSoundingSessionConfiguration) {
        guard let central else { return finish(.notConnected) }
        guard central.supports(.channelSounding) else { return finish(.notSupported) }
        guard link == nil else { return delegate?.peripheral(self, didCompleteChannelSoundingSession: .sessionInProgress) ?? () }
        var newLink = setup.makeLink()
        for output in newLink.settle() {
            if case .failed(let e) = output {
                capturedHCI = newLink.capture
                return finish(.configurationFailed(e))
            }
        }
        guard newLink.initiatorHost.isRanging else { return finish(.configurationFailed(.procedureFailed(event: "CS Procedure Enable Complete", status: .unspecifiedError))) }
        link = newLink
        self.configuration = configuration
        tracker = DistanceTracker()
        completed = 0
    }

    /// Stops the session; the delegate hears `didCompleteChannelSoundingSession` with no error.
    public func cancelChannelSoundingSession() {
        guard link != nil else { return }
        _ = link!.stop()
        finish(nil)
    }

    /// Runs the next procedure and reports it to the delegate. Returns false when no session runs.
    @discardableResult
    public func processNextProcedure() -> Bool {
        guard var l = link, let configuration else { return false }
        guard let outputs = l.runProcedure() else {
            link = l
            finish(nil)
            return false
        }
        link = l
        for output in outputs {
            switch output {
            case let .procedure(p, reflector):
                let tones = ToneSetBuilder.tones(initiator: p.steps, reflector: reflector, antennaPaths: p.antennaPaths)
                let estimate = configuration.estimator.estimate(tones)
                let time = Double(l.clock) / 1e6
                let smoothed = tracker.update(estimate?.distance, at: time)
                lastReport = ChannelSoundingReport(procedureCounter: p.procedureCounter, time: time, estimate: estimate,
                                                   smoothedDistance: estimate == nil ? nil : smoothed, tones: tones)
                completed += 1
                reportCount += 1
                if estimate != nil, let d = smoothed {
                    delegate?.peripheral(self, didReceive: ChannelSoundingProcedureResults(distance: d), error: nil)
                } else {
                    delegate?.peripheral(self, didReceive: nil, error: .measurementFailed)
                }
            case .failed(let e):
                finish(.configurationFailed(e))
                return false
            case .disabled:
                finish(nil)
                return false
            case .enabled:
                break
            }
        }
        if let limit = configuration.procedureLimit, completed >= limit { cancelChannelSoundingSession() }
        return true
    }

    func disconnected() {
        central = nil
        if link != nil { finish(.notConnected) }
    }

    private func finish(_ error: ChannelSoundingError?) {
        if let c = link?.capture { capturedHCI = c }
        link = nil
        configuration = nil
        delegate?.peripheral(self, didCompleteChannelSoundingSession: error)
    }
}
