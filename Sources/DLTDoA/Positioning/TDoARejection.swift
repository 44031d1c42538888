/// An anchor left out of a fix, and why: the report an app needs to trust (or not) an epoch.
public struct TDoARejection: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The fit with it failed the χ² test and leaving it out explained the excess: its
        /// arrival was significantly late (NLOS only ever delays, so an early one is never
        /// this), and of the anchors that could explain it, it fitted best (with the tracker's
        /// prediction breaking ties between subsets the epoch alone cannot tell apart).
        case lateArrival
        /// Late over the epochs before this one (its estimated delay significant), so left out
        /// before this epoch's fit; it is reinstated when its delay fades.
        case persistentlyLate
        /// One of two anchors left out together (one obstacle shadowing both: leaving out either
        /// alone leaves the other's pull).
        case lateWithAnother
    }

    public var anchor: TDoAAnchorID
    public var reason: Reason

    public init(anchor: TDoAAnchorID, reason: Reason) {
        self.anchor = anchor
        self.reason = reason
    }
}
