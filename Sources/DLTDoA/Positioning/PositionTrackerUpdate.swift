import EmulatorMath
/// What `PositionTracker.update` did with one fix.
public struct PositionTrackerUpdate: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// The first fix (or the first after `reset()`): the state starts there.
        case initialized
        /// Inside the gate: a Kalman update.
        case accepted
        /// Outside the gate: the state is only predicted.
        case rejected
        /// The `resetAfterRejections`-th rejection in a row: the state restarts at this fix.
        case reset
    }

    /// The filtered position at the fix's time.
    public var position: Vector3
    public var velocity: Vector3
    public var outcome: Outcome
    /// yᵀS⁻¹y of the innovation (0 when initializing).
    public var mahalanobisSquared: Double
}
