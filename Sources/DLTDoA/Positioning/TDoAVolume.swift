import EmulatorMath
/// Where a receiver can physically be: a box from the floor to a little above the highest
/// anchor, over the anchors' footprint and a margin around it. A fix outside it is no fix
/// (a person does not walk under the floor or above the ceiling), so the solver chooses among
/// ambiguous solutions with it and keeps its answer inside it.
public struct TDoAVolume: Sendable, Equatable {
    public var minimum: Vector3
    public var maximum: Vector3

    public init(minimum: Vector3, maximum: Vector3) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The volume of a deployment from its anchors alone: x and y over their bounding box
    /// widened by `margin`, z from `floor` (or the lowest anchor, if lower) to the highest
    /// anchor plus `headroom`.
    public init(anchors: [Vector3], floor: Double, margin: Double = 2, headroom: Double = 1) {
        var lo = Vector3(Double.infinity, Double.infinity, Double.infinity)
        var hi = Vector3(-Double.infinity, -Double.infinity, -Double.infinity)
        for a in anchors {
            lo = Vector3(min(lo.x, a.x), min(lo.y, a.y), min(lo.z, a.z))
            hi = Vector3(max(hi.x, a.x), max(hi.y, a.y), max(hi.z, a.z))
        }
        if anchors.isEmpty { lo = .zero; hi = .zero }
        self.init(minimum: Vector3(lo.x - margin, lo.y - margin, min(floor, lo.z)),
                  maximum: Vector3(hi.x + margin, hi.y + margin, hi.z + headroom))
    }

    /// Inside or on the boundary, with `tolerance` metres of slack.
    public func contains(_ p: Vector3, tolerance: Double = 1e-9) -> Bool {
        p.x >= minimum.x - tolerance && p.x <= maximum.x + tolerance && p.y >= minimum.y - tolerance && p.y <= maximum.y + tolerance
            && p.z >= minimum.z - tolerance && p.z <= maximum.z + tolerance
    }

    /// The nearest point inside.
    public func clamped(_ p: Vector3) -> Vector3 {
        Vector3(min(max(p.x, minimum.x), maximum.x), min(max(p.y, minimum.y), maximum.y), min(max(p.z, minimum.z), maximum.z))
    }

    /// How far outside, metres (0 inside).
    public func distance(to p: Vector3) -> Double { (clamped(p) - p).length }

    /// The middle of the box.
    public var centre: Vector3 { (minimum + maximum) * 0.5 }
}
