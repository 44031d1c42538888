/// The two ends of the link. The Air indexes per-device state by it and tells a transmission's
/// sender from its receivers; the firmware's `CSRole` is the same idea, but the Air is not tied
/// to how a configuration names roles.
public enum AirDevice: Int, Sendable, Equatable, CaseIterable {
    case initiator = 0
    case reflector = 1

    /// The other end.
    @inline(__always)
    public var peer: AirDevice { self == .initiator ? .reflector : .initiator }
}
