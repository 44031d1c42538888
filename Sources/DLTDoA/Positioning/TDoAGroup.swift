import EmulatorMath
/// The range differences of one cluster in one epoch: the cluster's initiator is the
/// `reference`, and for each other anchor i
///
///     ‖x − anchors[i]‖ − ‖x − reference‖ = rangeDifferences[i] + noise   (metres).
///
/// With independent arrival-time noise σ per anchor, the noise covariance within the group is
/// σ²(I + 11ᵀ) (the reference's noise is common to every difference).
public struct TDoAGroup: Sendable, Equatable {
    public var reference: Vector3
    public var anchors: [Vector3]
    public var rangeDifferences: [Double]

    public init(reference: Vector3, anchors: [Vector3], rangeDifferences: [Double]) {
        precondition(anchors.count == rangeDifferences.count, "one range difference per anchor")
        self.reference = reference
        self.anchors = anchors
        self.rangeDifferences = rangeDifferences
    }

    /// Noiseless differences for a receiver at `position` (simulation and tests).
    public init(reference: Vector3, anchors: [Vector3], position: Vector3) {
        let d0 = (position - reference).length
        self.init(reference: reference, anchors: anchors, rangeDifferences: anchors.map { ($0 - position).length - d0 })
    }

    /// The number of anchors, reference included.
    public var anchorCount: Int { anchors.count + 1 }

    /// The same measurements referred to `anchors[newReference]`: the old reference becomes an
    /// anchor with difference −r_k, and every other r_i becomes r_i − r_k. Exact: the
    /// differences are of arrival times, so the noise model σ²(I + 11ᵀ) is unchanged.
    public func rereferenced(to newReference: Int) -> TDoAGroup {
        let rk = rangeDifferences[newReference]
        var a: [Vector3] = [reference]
        var r: [Double] = [-rk]
        for i in anchors.indices where i != newReference {
            a.append(anchors[i])
            r.append(rangeDifferences[i] - rk)
        }
        return TDoAGroup(reference: anchors[newReference], anchors: a, rangeDifferences: r)
    }

    /// The group without `anchors[index]`, or without its reference (`index` nil, re-referenced
    /// to anchors[0]); nil when fewer than two anchors would remain.
    public func removing(_ index: Int?) -> TDoAGroup? {
        guard anchors.count >= 2 else { return nil }
        if let index {
            var g = self
            g.anchors.remove(at: index)
            g.rangeDifferences.remove(at: index)
            return g
        }
        var g = rereferenced(to: 0)
        g.anchors.removeFirst()
        g.rangeDifferences.removeFirst()
        return g
    }
}
