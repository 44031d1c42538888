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

    /// How late anchor j arrived against a fit at x that left it out: ē − e_j over the active
    /// anchors of its group (e = ‖x − a‖ − m); nil when none of its group is active.
    func lateness(of j: Int, at x: Vector3) -> Double? {
        var g = 0
        while groupStart[g + 1] <= j { g += 1 }
        var n = 0.0, se = 0.0
        for k in groupStart[g]..<groupStart[g + 1] where active[k] && k != j {
            n += 1
            se += (x - positions[k]).length - offsets[k]
        }
        guard n > 0 else { return nil }
        return se / n - ((x - positions[j]).length - offsets[j])
    }

    /// Every anchor's delay at the fix x (`TDoAAnchorDelay`), with N⁻¹ = `normalInverse` (the
    /// fit's covariance over σ²; in 2-D its z row and column are zero, which drops z from the
    /// hat matrix as it should). Groups with fewer than two active anchors say nothing.
    func delays(at x: Vector3, normalInverse: Matrix3) -> [TDoAAnchorDelay] {
        var out: [TDoAAnchorDelay] = []
        out.reserveCapacity(positions.count)
        for g in 0..<groupCount {
            var n = 0.0, se = 0.0
            var su = Vector3.zero
            for j in groupStart[g]..<groupStart[g + 1] where active[j] {
                let d = x - positions[j]
                let r = max(d.length, 1e-9)
                n += 1
                se += r - offsets[j]
                su += d * (1 / r)
            }
            guard n >= 2 else { continue }
            let ebar = se / n, ubar = su * (1 / n)
            for j in groupStart[g]..<groupStart[g + 1] {
                let d = x - positions[j]
                let r = max(d.length, 1e-9)
                let v = d * (1 / r) - ubar
                let id = anchorID(j)
                let e = r - offsets[j]
                if active[j] {
                    let q = max(1 - 1 / n - normalInverse.quadraticForm(v), 1e-6)
                    out.append(TDoAAnchorDelay(anchor: id, delay: (ebar - e) / q, sigma: sigma / q.squareRoot(), used: true))
                } else {
                    let q = 1 + 1 / n + normalInverse.quadraticForm(v)
                    out.append(TDoAAnchorDelay(anchor: id, delay: ebar - e, sigma: sigma * q.squareRoot(), used: false))
                }
            }
        }
        return out
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
