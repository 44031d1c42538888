/// How the device separation changes over time: a piecewise-linear profile through waypoints
/// (µs on the controllers' clock, metres), held constant before the first and after the last.
/// A straight walk is two waypoints; a phone swaying and walking around an accessory is a
/// dense profile sampled from its 3D path. Looking a distance up is a binary search, so the
/// per-step path stays free of allocation however long the profile is.
public struct AirTrajectory: Sendable, Equatable {
    /// One point of the profile.
    public struct Waypoint: Sendable, Equatable {
        /// µs on the controllers' clock.
        public var time: UInt64
        /// Separation, metres.
        public var distance: Double

        public init(time: UInt64, distance: Double) {
            self.time = time
            self.distance = distance
        }
    }

    /// In time order; two waypoints at the same time make a jump.
    public let waypoints: [Waypoint]

    /// A profile through `waypoints`, which must not be empty and must be in time order.
    public init(waypoints: [Waypoint]) {
        precondition(!waypoints.isEmpty, "a trajectory needs a waypoint")
        precondition(zip(waypoints, waypoints.dropFirst()).allSatisfy { $0.time <= $1.time }, "waypoints in time order")
        self.waypoints = waypoints
    }

    /// A straight-line change from `startDistance` to `endDistance` between `startTime` and
    /// `startTime + duration` (µs; a duration of 0 is a jump at `startTime`).
    public init(startDistance: Double, endDistance: Double, startTime: UInt64 = 0, duration: UInt64) {
        self.init(waypoints: [Waypoint(time: startTime, distance: startDistance),
                              Waypoint(time: startTime + duration, distance: endDistance)])
    }

    /// The separation in metres at `time` (µs): linear interpolation, clamped to the profile.
    public func distance(at time: UInt64) -> Double {
        let i = lastIndex(notAfter: time)
        guard i >= 0 else { return waypoints[0].distance }
        guard i + 1 < waypoints.count else { return waypoints[i].distance }
        let a = waypoints[i], b = waypoints[i + 1]
        let fraction = Double(time - a.time) / Double(b.time - a.time)
        return a.distance + (b.distance - a.distance) * fraction
    }

    /// The rate of change of the separation at `time`, m/s (0 outside the profile).
    public func velocity(at time: UInt64) -> Double {
        let i = lastIndex(notAfter: time)
        guard i >= 0, i + 1 < waypoints.count else { return 0 }
        let a = waypoints[i], b = waypoints[i + 1]
        return (b.distance - a.distance) / (Double(b.time - a.time) * 1e-6)
    }

    /// Index of the last waypoint at or before `time` (−1 when all are later). Waypoints at the
    /// same time resolve to the last of them, so a jump takes effect at its time and the
    /// segment found always has a later end.
    @inline(__always)
    private func lastIndex(notAfter time: UInt64) -> Int {
        var low = 0, high = waypoints.count
        while low < high {
            let mid = (low + high) / 2
            if waypoints[mid].time <= time { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }
}
