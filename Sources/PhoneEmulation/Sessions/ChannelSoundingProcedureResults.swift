import BLEHost
import RangingEstimation
import ReflectorFirmware
/// One procedure's result as an app receives it, modelled on Core Bluetooth's
/// `CBChannelSoundingProcedureResults`: the distance in metres, filtered and smoothed. Like
/// iOS, nothing else is exposed to the app; the emulator's tools read `ChannelSoundingReport`.
public struct ChannelSoundingProcedureResults: Sendable, Equatable {
    /// Distance in metres, after outlier filtering and smoothing.
    public var distance: Double
}

/// Everything the emulator knows about one procedure of a session, for tools and tests: the
/// raw estimate, what the app was told, and when.
public struct ChannelSoundingReport: Sendable {
    public var procedureCounter: UInt16
    /// Virtual time of the middle of the procedure (what its distance describes), seconds.
    public var time: Double
    /// The raw estimate (nil: too few usable tones, or the procedure failed).
    public var estimate: DistanceEstimate?
    /// What the app received (nil when the procedure failed and no distance could be given).
    public var smoothedDistance: Double?
    /// The procedure's results and tones, for plots.
    public var tones: ToneSet
    /// Its mode-1/3 round-trip times (none in mode 2).
    public var roundTrips: RoundTripTimes
    /// The estimate of the still scene's pooled tones (`DistanceSmoother`), nil while it moves.
    public var stillEstimate: DistanceEstimate?
    /// Procedures pooled into `stillEstimate`.
    public var stillProcedures: Int

    public init(procedureCounter: UInt16, time: Double, estimate: DistanceEstimate?, smoothedDistance: Double?, tones: ToneSet,
                roundTrips: RoundTripTimes = .none, stillEstimate: DistanceEstimate? = nil, stillProcedures: Int = 0) {
        self.procedureCounter = procedureCounter
        self.time = time
        self.estimate = estimate
        self.smoothedDistance = smoothedDistance
        self.tones = tones
        self.roundTrips = roundTrips
        self.stillEstimate = stillEstimate
        self.stillProcedures = stillProcedures
    }
}

/// Why a Channel Sounding session could not start or stopped, modelled on
/// `CBError.Code.channelSoundingConfigurationFailed` and friends.
public enum ChannelSoundingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The phone does not support Channel Sounding (no N1 chip, or the region forbids it).
    case notSupported
    /// The peripheral is not connected.
    case notConnected
    /// A session is already running with this peripheral.
    case sessionInProgress
    /// Set-up failed: the accessory does not meet the requirements, or refused a parameter.
    case configurationFailed(HostError)
    /// The procedure's measurement failed (no distance).
    case measurementFailed
    /// The link went down during the session, for this reason (as `CBError.peripheralDisconnected`).
    case peripheralDisconnected(reason: HCIStatus)

    public var description: String {
        switch self {
        case .notSupported: return "this phone does not support Channel Sounding"
        case .notConnected: return "the peripheral is not connected"
        case .sessionInProgress: return "a Channel Sounding session is already running"
        case .configurationFailed(let e): return "Channel Sounding configuration failed: \(e)"
        case .measurementFailed: return "the Channel Sounding measurement failed"
        case .peripheralDisconnected(let reason): return "the peripheral disconnected: \(reason) (0x\(String(reason.rawValue, radix: 16)))"
        }
    }
}
