import EmulatorMath
/// A `TDoAProblem` flattened for the iterative solver, in the form that treats every anchor of
/// a group, the reference included, alike: the differences r_i = d_i − d_ref + n_i are those
/// of pseudo-ranges m_j = d_j + b_g + ε_j (m_ref = 0, m_i = r_i; b_g a nuisance offset per
/// group, ε_j iid σ²). Eliminating b_g gives exactly the weighted cost with W = Q⁻¹,
/// Q = σ²(I + 11ᵀ):
///
///     fᵀ Q⁻¹ f = Σ_g Σ_{j∈g} (e_j − ē_g)² / σ²,   e_j = ‖x − a_j‖ − m_j,
///
/// so one pass over the anchors with per-group sums gives the cost, JᵀWJ and JᵀWf without any
/// matrix, and dropping an anchor (reference or not) is clearing one flag: re-referencing is
/// implicit and exact.
struct TDoAMeasurementSet {
    /// Every anchor of every group, reference first in each group.
    var positions: [Vector3]
    /// m_j: 0 for a reference, r_i for the others.
    var offsets: [Double]
    /// Group g is positions[groupStart[g] ..< groupStart[g + 1]].
    var groupStart: [Int]
    var active: [Bool]
    let sigma: Double
    let fixedHeight: Double?

    init(_ problem: TDoAProblem) {
        var p: [Vector3] = []
        var o: [Double] = []
        var s: [Int] = [0]
        let n = problem.groups.reduce(0) { $0 + $1.anchorCount }
        p.reserveCapacity(n)
        o.reserveCapacity(n)
        s.reserveCapacity(problem.groups.count + 1)
        for g in problem.groups {
            p.append(g.reference)
            o.append(0)
            for (a, r) in zip(g.anchors, g.rangeDifferences) {
                p.append(a)
                o.append(r)
            }
            s.append(p.count)
        }
        positions = p
        offsets = o
        groupStart = s
        active = Array(repeating: true, count: p.count)
        sigma = problem.timingSigma
        fixedHeight = problem.fixedHeight
    }

    var dimension: Int { fixedHeight == nil ? 3 : 2 }
    var groupCount: Int { groupStart.count - 1 }

    /// Independent differences among the active anchors: Σ_g max(0, active_g − 1).
    var measurementCount: Int {
        var m = 0
        for g in 0..<groupCount {
            var c = 0
            for j in groupStart[g]..<groupStart[g + 1] where active[j] { c += 1 }
            m += max(0, c - 1)
        }
        return m
    }

    /// The anchor behind flat index j.
    func anchorID(_ j: Int) -> TDoAAnchorID {
        var g = 0
        while groupStart[g + 1] <= j { g += 1 }
        let k = j - groupStart[g]
        return TDoAAnchorID(group: g, index: k == 0 ? nil : k - 1)
    }

    /// Flat index of an anchor.
    func flatIndex(_ id: TDoAAnchorID) -> Int { groupStart[id.group] + (id.index.map { $0 + 1 } ?? 0) }

    /// At x: the cost Σ(e − ē)² (m², not divided by σ²), H = Σ(u − ū)(u − ū)ᵀ and the gradient
    /// half g = Σ(e − ē)u, over active anchors. One pass, no allocation.
    @inline(__always)
    func evaluate(at x: Vector3) -> (cost: Double, normal: Matrix3, gradient: Vector3) {
        var cost = 0.0
        var h = Matrix3.zero
        var grad = Vector3.zero
        positions.withUnsafeBufferPointer { pos in
            offsets.withUnsafeBufferPointer { off in
                active.withUnsafeBufferPointer { act in
                    for g in 0..<(groupStart.count - 1) {
                        var n = 0.0, se = 0.0, see = 0.0
                        var su = Vector3.zero, seu = Vector3.zero
                        var suu = Matrix3.zero
                        for j in groupStart[g]..<groupStart[g + 1] where act[j] {
                            let d = x - pos[j]
                            let r = max(d.length, 1e-9)
                            let u = d * (1 / r)
                            let e = r - off[j]
                            n += 1
                            se += e
                            see += e * e
                            su += u
                            seu += u * e
                            suu += Matrix3.outer(u)
                        }
                        if n < 2 { continue }
                        let inv = 1 / n
                        cost += see - se * se * inv
                        grad += seu - su * (se * inv)
                        h += suu - Matrix3.outer(su) * inv
                    }
                }
            }
        }
        return (cost, h, grad)
    }

    /// d_i − d_ref − r_i at x for every anchor of the problem, per group (references omitted),
    /// whether active or not.
    func residuals(at x: Vector3) -> [[Double]] {
        (0..<groupCount).map { g in
            let s = groupStart[g]
            let d0 = (x - positions[s]).length
            return ((s + 1)..<groupStart[g + 1]).map { (x - positions[$0]).length - d0 - offsets[$0] }
        }
    }
}
