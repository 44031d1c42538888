import EmulatorMath
import Foundation

/// How a Nearby run went, against the truth: how many updates, how many had a distance and a
/// direction, when direction first came, the distance and direction errors (median and
/// 90th percentile), and the direction's Cramér–Rao bound to read them against.
public struct NearbySummary: Sendable, Equatable {
    public var updates: Int
    public var withDistance: Int
    public var withDirection: Int
    /// World time of the first update with a direction, seconds.
    public var firstDirectionTime: Double?
    public var medianDistanceError: Double?
    public var p90DistanceError: Double?
    /// Radians.
    public var medianDirectionError: Double?
    public var p90DirectionError: Double?
    public var withHorizontalAngle: Int
    /// Radians.
    public var medianHorizontalAngleError: Double?
    /// The mean of the rates (procedures per second) the updates came at.
    public var updateRate: Double?
    /// The Cramér–Rao bound's median direction error over the updates that had a direction
    /// (`DirectionBound`), radians; nil for a moving accessory or without directions.
    public var medianDirectionBound: Double?
    /// The range noise that bound assumes, metres.
    public var boundRangeSigma: Double?
    /// The carrier-phase changes' noise it assumes, metres (nil: none fused).
    public var boundPhaseSigma: Double?

    public init(_ updates: [NearbyUpdateRecord]) {
        self.updates = updates.count
        let distanceErrors = updates.compactMap(\.distanceError).sorted()
        let directionErrors = updates.compactMap(\.directionError).sorted()
        withDistance = distanceErrors.count
        withDirection = directionErrors.count
        firstDirectionTime = updates.first { $0.object.direction != nil }?.object.time
        medianDistanceError = Self.quantile(distanceErrors, 0.5)
        p90DistanceError = Self.quantile(distanceErrors, 0.9)
        medianDirectionError = Self.quantile(directionErrors, 0.5)
        p90DirectionError = Self.quantile(directionErrors, 0.9)
        let horizontalErrors = updates.compactMap(\.horizontalAngleError).sorted()
        withHorizontalAngle = horizontalErrors.count
        medianHorizontalAngleError = Self.quantile(horizontalErrors, 0.5)
        let rates = updates.map(\.object.measurementRate)
        updateRate = rates.isEmpty ? nil : rates.reduce(0, +) / Double(rates.count)
        let bound = DirectionBound(updates)
        medianDirectionBound = bound?.median(over: updates) { $0.object.direction != nil }
        boundRangeSigma = bound?.rangeSigma
        boundPhaseSigma = bound?.phaseSigma
    }

    /// The `q` quantile of sorted `values` (nil when empty): EmulatorMath's one definition,
    /// linear interpolation between order statistics.
    public static func quantile(_ sorted: [Double], _ q: Double) -> Double? { Quantile.ofSorted(sorted, q) }
}
