/// The propagation model between the two devices' antennas, on top of the geometry's
/// line-of-sight path. Every model is reciprocal: the Air uses the same response both ways.
public enum AirChannelModel: Sendable, Equatable {
    /// Line of sight only: H = e^{−j2πf·L/c} for a path of length L.
    case freeSpace
    /// Line of sight plus one reflection (floor, wall, ceiling) whose path is `excessPath` metres
    /// longer, with amplitude `amplitude` relative to the direct path and phase `phase` radians
    /// (nil: uniform, drawn per channel realization):
    /// H = e^{−j2πf·L/c}·(1 + a·e^{jφ}·e^{−j2πf·Δ/c}).
    case twoRay(excessPath: Double, amplitude: Double, phase: Double?)
    /// A TGn tapped delay line with taps drawn per realization. `lineOfSight` nil decides by the
    /// profile's breakpoint distance; true or false forces it. Mean total power is 1.
    case tgn(TGnProfile, lineOfSight: Bool?)
}
