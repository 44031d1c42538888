/// A point (or offset) in metres in the scenario's local frame: the initiator sits at the
/// origin, the reflector on the +x axis at the scenario's distance, and each antenna is an
/// offset from its device's reference point. Antenna offsets are what make the antenna paths'
/// lengths, and so their phases, differ.
public struct AirPoint: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double = 0, y: Double = 0, z: Double = 0) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let origin = AirPoint()

    /// Euclidean distance to `other`.
    @inline(__always)
    public func distance(to other: AirPoint) -> Double {
        let dx = other.x - x, dy = other.y - y, dz = other.z - z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }
}
