import AnchorFirmware
import NearbyInteraction

/// A DL-TDOA session, modelled on `NISession` run with an `NIDLTDOAConfiguration`: the phone
/// listens to the anchors of one network and reports every message it hears; the app computes
/// its position (`DLTDOAPositioner` is a reference implementation).
///
/// Lifecycle, as Apple describes it: location authorization is required (denied or revoked:
/// `userDidNotAllow`); the phone first discovers the network's anchors by their Bluetooth LE or
/// Wi-Fi advertisement (the configuration's method), then ranges. A session started in the
/// background (from a region-entry event) may run `backgroundTimeLimit` seconds (30 s; Apple's
/// figure is unconfirmed) and then ends with `resourceUsageTimeout`, found anchors or not; when
/// the app comes to the foreground it is invalidated so that a new, unlimited session can start.
/// Time is virtual: `advance(to:)` turns the run loop.
public final class DLTDOASession {
    public enum State: Sendable, Equatable {
        case idle
        /// Listening for the network's discovery advertisement.
        case discovering
        case ranging
        case invalidated
    }

    public weak var delegate: DLTDOASessionDelegate?
    /// Whether the phone has UWB with DL-TDOA (`NIDeviceCapability.supportsDLTDOAMeasurement`).
    public let supportsDLTDOAMeasurement: Bool
    public private(set) var state = State.idle
    public private(set) var configuration: DLTDOAConfiguration?
    public private(set) var locationAuthorization: LocationAuthorization
    public private(set) var isBackgroundSession = false
    public var backgroundTimeLimit = 30.0
    /// When the network was discovered (world time, s).
    public private(set) var discoveryTime: Double?
    public private(set) var reader: DLTDOAMeasurementReader?

    /// The simulated world the phone is in (for a simulation's bookkeeping, not an app's).
    public private(set) var air: DLTDOAAir
    private var startTime = 0.0

    public init(air: DLTDOAAir, supportsDLTDOAMeasurement: Bool = true, locationAuthorization: LocationAuthorization = .whenInUse) {
        self.air = air
        self.supportsDLTDOAMeasurement = supportsDLTDOAMeasurement
        self.locationAuthorization = locationAuthorization
    }

    /// World time, seconds.
    public var time: Double { air.time }

    /// Starts listening for `configuration`'s network; `inBackground` for a session an app
    /// starts from a region-entry event.
    public func run(_ configuration: DLTDOAConfiguration, inBackground: Bool = false) {
        guard state == .idle else { return invalidate(with: state == .invalidated ? .invalidated : .invalidConfiguration("the session is already running")) }
        guard supportsDLTDOAMeasurement else { return invalidate(with: .unsupportedPlatform) }
        guard let network = UInt32(exactly: configuration.networkIdentifier) else {
            return invalidate(with: .invalidConfiguration("network identifier \(configuration.networkIdentifier) is not a 32-bit FiRa session ID"))
        }
        guard locationAuthorization.allows(background: inBackground) else { return invalidate(with: .userDidNotAllow) }
        self.configuration = configuration
        isBackgroundSession = inBackground
        reader = DLTDOAMeasurementReader(networkIdentifier: network)
        startTime = air.time
        state = .discovering
    }

    /// The user changed the app's location authorization; a running session that may no longer
    /// range stops with `userDidNotAllow`.
    public func setLocationAuthorization(_ authorization: LocationAuthorization) {
        locationAuthorization = authorization
        if state == .discovering || state == .ranging, !authorization.allows(background: isBackgroundSession) {
            invalidate(with: .userDidNotAllow)
        }
    }

    /// The app came to the foreground: a background session is invalidated (run a new one).
    public func applicationWillEnterForeground() {
        if isBackgroundSession, state == .discovering || state == .ranging { invalidate(with: .invalidated) }
    }

    /// Ends the session; the delegate is not called.
    public func invalidate() { state = .invalidated }

    /// Runs the world to `time` (s): discovery, then every message heard, to the delegate.
    public func advance(to end: Double) {
        guard state == .discovering || state == .ranging else {
            _ = air.run(until: end)
            return
        }
        let limit = isBackgroundSession ? startTime + backgroundTimeLimit : Double.infinity
        let stop = min(end, limit)
        if state == .discovering { discover(until: stop) }
        let frames = air.run(until: stop)
        if state == .ranging, let discovered = discoveryTime {
            var measurements: [DLTDOAMeasurement] = []
            for f in frames where f.trueTime >= discovered {
                if let m = reader?.read(f) { measurements.append(m) }
            }
            if !measurements.isEmpty { delegate?.session(self, didUpdateDLTDOA: measurements) }
        }
        if end >= limit {
            invalidate(with: .resourceUsageTimeout)
            _ = air.run(until: end)
        }
    }

    private func discover(until end: Double) {
        guard let configuration, let reader else { return }
        let wifi = configuration.discoveryMethod == .wifi
        for ad in air.advertisements(from: max(startTime, air.time), to: end, wifi: wifi) {
            let decoded = wifi ? try? DiscoveryAdvertisement(wifiElements: ad.octets) : try? DiscoveryAdvertisement(bluetoothAdvertisingData: ad.octets)
            guard let decoded, decoded.sessionID == reader.networkIdentifier else { continue }
            discoveryTime = ad.time
            state = .ranging
            return
        }
    }

    private func invalidate(with error: NearbyError) {
        state = .invalidated
        delegate?.session(self, didInvalidateWith: error)
    }
}
