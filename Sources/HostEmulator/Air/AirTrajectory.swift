/// A straight-line change of the device separation over a time span: the reflector moves along
/// the x axis from `startDistance` to `endDistance` between `startTime` and
/// `startTime + duration` (µs on the controllers' clock) and stays put before and after. Enough
/// to test that ranging follows motion, and that the RTT tracks the time of flight.
public struct AirTrajectory: Sendable, Equatable {
    public var startDistance: Double
    public var endDistance: Double
    /// When the motion starts, µs.
    public var startTime: UInt64
    /// How long it lasts, µs (0: a jump at `startTime`).
    public var duration: UInt64

    public init(startDistance: Double, endDistance: Double, startTime: UInt64 = 0, duration: UInt64) {
        self.startDistance = startDistance
        self.endDistance = endDistance
        self.startTime = startTime
        self.duration = duration
    }

    /// The separation in metres at `time` (µs): linear interpolation, clamped to the span.
    public func distance(at time: UInt64) -> Double {
        if time <= startTime { return duration == 0 && time == startTime ? endDistance : startDistance }
        let elapsed = time - startTime
        if elapsed >= duration { return endDistance }
        let fraction = Double(elapsed) / Double(duration)
        return startDistance + (endDistance - startDistance) * fraction
    }

    /// The rate of change of the separation at `time`, m/s (0 outside the span).
    public func velocity(at time: UInt64) -> Double {
        guard duration > 0, time >= startTime, time - startTime < duration else { return 0 }
        return (endDistance - startDistance) / (Double(duration) * 1e-6)
    }
}
