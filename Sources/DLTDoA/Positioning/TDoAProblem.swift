import EmulatorMath
/// The measurements of one epoch: one `TDoAGroup` per cluster (groups are independent: each has
/// its own reference, and differences are never formed across clusters), the arrival-time
/// noise σ of every anchor as metres, and, for near-coplanar anchors (a ceiling), the known
/// height at which to solve in 2D, and where the receiver can physically be.
public struct TDoAProblem: Sendable, Equatable {
    public var groups: [TDoAGroup]
    /// σ of each anchor's arrival time, metres: within a group cov = σ²(I + 11ᵀ).
    public var timingSigma: Double
    /// Solve for x, y only, at this z (metres); nil: solve in 3D.
    public var fixedHeight: Double?
    /// Where the receiver can be (floor, headroom, footprint); nil: anywhere.
    public var volume: TDoAVolume?
    /// The height a receiver most likely has (a phone in hand), metres: in 3-D it chooses between
    /// solutions the measurements cannot tell apart; nil: no preference.
    public var likelyHeight: Double?

    public init(groups: [TDoAGroup], timingSigma: Double, fixedHeight: Double? = nil, volume: TDoAVolume? = nil, likelyHeight: Double? = nil) {
        self.groups = groups
        self.timingSigma = timingSigma
        self.fixedHeight = fixedHeight
        self.volume = volume
        self.likelyHeight = likelyHeight
    }

    /// 2 with a fixed height, else 3.
    public var dimension: Int { fixedHeight == nil ? 3 : 2 }

    /// The number of independent range differences (Σ over groups of anchors − 1).
    public var measurementCount: Int { groups.reduce(0) { $0 + $1.anchors.count } }

    /// The mean of every anchor position (references included), at the fixed height if any: a
    /// start point for the iterative solver.
    public var anchorCentroid: Vector3 {
        var s = Vector3.zero
        var n = 0
        for g in groups {
            s += g.reference
            n += 1
            for a in g.anchors {
                s += a
                n += 1
            }
        }
        guard n > 0 else { return Vector3(0, 0, fixedHeight ?? 0) }
        var c = s * (1 / Double(n))
        if let h = fixedHeight { c.z = h }
        return c
    }
}
