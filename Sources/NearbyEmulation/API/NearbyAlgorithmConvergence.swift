/// How far the direction fusion is from a direction, and what the user should do about it,
/// modelled on `NIAlgorithmConvergence`: an app shows "move your phone side to side" or "up
/// and down" from the reasons.
public enum NearbyAlgorithmConvergence: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The phone has hardly moved: distances from one place give no direction.
        case insufficientMovement
        /// Move the phone side to side: the horizontal angle is not known yet.
        case insufficientHorizontalSweep
        /// Move the phone up and down: the horizontal angle is known, the elevation not.
        case insufficientVerticalSweep
    }

    case unknown
    case converged
    case notConverged([Reason])
}
