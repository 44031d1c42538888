import EmulatorMath
import Foundation

/// The accessory's TRUE world position over time.
///
/// A random walk is drawn once, up front, as a path sampled every `step` seconds and linearly
/// interpolated: deterministic for a seed, O(1) to query at any time, and a plain value.
public enum AccessoryMotion: Sendable, Equatable {
    /// A fixed point (a tag on a shelf).
    case stationary(Vector3)
    /// Straight-line motion at constant velocity (m/s) from `start` at time zero.
    case straightLine(start: Vector3, velocity: Vector3)
    /// A precomputed path: `points[i]` at time `i · step`; held at the ends.
    case sampled(points: [Vector3], step: Double)

    /// A tag carried around: constant walking `speed` (m/s) at a constant height, the heading
    /// a random walk (`turnRate` rad/√s, 1σ). A heading random walk rather than a position
    /// random walk, because a person walks at a steady speed and turns gradually.
    public static func randomWalk(from start: Vector3, speed: Double = 0.5, duration: Double, seed: UInt64,
                                  turnRate: Double = 0.5, step: Double = 0.05) -> AccessoryMotion {
        var rng = SeededGenerator(seed: seed, stream: 0xAC3E55)
        var heading = rng.phase()
        var position = start
        let count = max(1, Int((duration / step).rounded(.up)) + 1)
        var points = [Vector3]()
        points.reserveCapacity(count)
        for _ in 0..<count {
            points.append(position)
            position += Vector3(cos(heading), sin(heading), 0) * (speed * step)
            heading += rng.gaussian() * turnRate * step.squareRoot()
        }
        return .sampled(points: points, step: step)
    }

    /// The true position at `time` seconds.
    public func position(at time: Double) -> Vector3 {
        switch self {
        case let .stationary(p):
            return p
        case let .straightLine(start, velocity):
            return start + velocity * time
        case let .sampled(points, step):
            guard let first = points.first, let last = points.last else { return .zero }
            let u = time / step
            if u <= 0 { return first }
            let i = Int(u)
            if i >= points.count - 1 { return last }
            return points[i] + (points[i + 1] - points[i]) * (u - Double(i))
        }
    }
}
