import RangingEstimation
/// What an app asks for when it starts Channel Sounding with a peripheral, modelled on Core
/// Bluetooth's `CBChannelSoundingSessionConfiguration` (iOS 27): the phone's role, and in this
/// emulator the estimator the phone runs and how many procedures the session lasts.
public struct ChannelSoundingSessionConfiguration: Sendable {
    public enum Role: Sendable, Equatable {
        /// The phone initiates: the accessory reflects (the only role iOS uses with accessories).
        case initiator
    }

    public var role: Role
    /// The distance estimator applied to each procedure.
    public var estimator: any DistanceEstimator
    /// Procedures to run before the session completes by itself; nil runs until cancelled.
    public var procedureLimit: Int?

    public init(role: Role = .initiator, estimator: any DistanceEstimator = MultipathFitEstimator(), procedureLimit: Int? = nil) {
        self.role = role
        self.estimator = estimator
        self.procedureLimit = procedureLimit
    }
}
