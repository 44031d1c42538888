/// A counter the runner reads around each piece of work it measures: on the firmware image
/// an instruction counter, on Linux nothing (`NoMeter`). Generic, never an existential, so the
/// Linux build and the measured path are the same code.
public protocol WorkMeter {
    /// The counter now, in the meter's units; wraps modulo 2^32.
    mutating func now() -> UInt32
}

/// No measurement: the Linux build's meter.
public struct NoMeter: WorkMeter {
    public init() {}
    @inline(__always) public mutating func now() -> UInt32 { 0 }
}
