import EmulatorMath
/// The closed-form TDoA solution of Y. T. Chan and K. C. Ho, "A simple and efficient estimator
/// for hyperbolic location", IEEE Transactions on Signal Processing 42(8):1905–1915, 1994
/// (reference §3.1; the scaling and fallbacks of Sun & Ho's `TDOALoc.m`).
///
/// With K_i = ‖a_i‖², r_i² + 2 r_i d_1 = K_i − K_1 − 2(a_i − a_1)ᵀx is linear in z = [x; d_1].
/// Stage 1 solves it by weighted least squares, W = (B Q B)⁻¹ with B = diag(d̂_i), starting at
/// B = I and re-weighting `stage1Iterations` − 1 times; stage 2 imposes d_1² = ‖x − a_1‖² on
/// z′ = z − [a_1; 0] with G₂ = [I; 1ᵀ], W₂ = B₂⁻¹(GᵀWG)B₂⁻¹, B₂ = diag(z′), and returns
/// x = sign(z′)·√|u| + a_1, falling back to the stage-1 x when d̂_1 < 0, some u < 0, or B₂ is
/// singular. Q⁻¹ ∝ I − 11ᵀ/(n+1) is known in closed form, so W = B⁻¹Q⁻¹B⁻¹ needs no n×n
/// inverse: the normal equations are formed from centred sums.
///
/// One group at a time: groups with different references carry different unknown offsets and
/// cannot be merged into one reference's differences, so `solve(_:)` uses the largest group
/// (the iterative `TDoALeastSquares` then fuses all groups). 3D needs ≥ 5 anchors (reference
/// included) not coplanar; 2D at a fixed height needs ≥ 4 (the height enters K_i as
/// (z₀ − a_i.z)²). When no single group is large enough, `solveJointly(_:)` (an extension of
/// stage 1 with one unknown d_ref per group, without stage 2) is used instead. Returns nil
/// when it cannot solve.
public struct ChanHoSolver: Sendable {
    /// Stage-1 solutions (the first with B = I).
    public var stage1Iterations: Int

    public init(stage1Iterations: Int = 3) {
        self.stage1Iterations = max(1, stage1Iterations)
    }

    /// The largest group with enough anchors for the problem's dimension, solved alone.
    public func solve(_ problem: TDoAProblem) -> Vector3? {
        let needed = problem.dimension + 2
        var best: Int?
        for (k, g) in problem.groups.enumerated() where g.anchorCount >= needed {
            if best == nil || g.anchorCount > problem.groups[best!].anchorCount { best = k }
        }
        guard let b = best else { return solveJointly(problem) }
        return solve(problem.groups[b], fixedHeight: problem.fixedHeight)
    }

    /// Stage 1 over all groups at once: z = [x; d_ref,1; …; d_ref,G], each group's rows
    /// r_i² + 2 r_i d_ref,g = K_i − K_ref,g − 2(a_i − a_ref,g)ᵀx weighted by its own
    /// B⁻¹Q⁻¹B⁻¹ (groups independent), re-weighted `stage1Iterations` − 1 times. No stage 2
    /// (its constraints would tie x to several references): less efficient than the two-stage
    /// form, but a closed-form start when every cluster is small, e.g. two clusters of 4 in 3D
    /// (6 differences, 5 unknowns). Needs Σ differences ≥ dimension + groups; nil otherwise or
    /// when singular.
    public func solveJointly(_ problem: TDoAProblem) -> Vector3? {
        let dim = problem.dimension
        let groups = problem.groups.filter { !$0.anchors.isEmpty }
        let ng = groups.count
        let p = dim + ng
        guard ng > 0, problem.measurementCount >= p else { return nil }
        let origin = problem.anchorCentroid
        let z0 = problem.fixedHeight
        // Shifted anchor a − origin and K = ‖a‖² (2D: ‖a_xy‖² + (z₀ − a.z)²).
        @inline(__always) func shifted(_ a: Vector3) -> (Vector3, Double) {
            let s = a - origin
            if let z0 {
                let c = (z0 - a.z) * (z0 - a.z)
                return (Vector3(s.x, s.y, 0), s.x * s.x + s.y * s.y + c)
            }
            return (s, s.dot(s))
        }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: p * p + 3 * (p + 1)) { buf -> Vector3? in
            let m = buf.baseAddress!
            let v = m + p * p
            let row = v + p + 1   // g̃ (p) and h̃ at [p]
            let sg = row + p + 1  // per-group Σ g̃ (p) and Σ h̃ at [p]
            var x = Vector3.zero
            var hasX = false
            for _ in 0..<stage1Iterations {
                for k in 0..<(p * p) { m[k] = 0 }
                for k in 0..<p { v[k] = 0 }
                for (g, group) in groups.enumerated() {
                    let (ar, kr) = shifted(group.reference)
                    for k in 0...p { sg[k] = 0 }
                    for (i, anchor) in group.anchors.enumerated() {
                        let (a, ki) = shifted(anchor)
                        let r = group.rangeDifferences[i]
                        var dhat = 1.0
                        if hasX {
                            let d = x - a
                            dhat = max((dim == 3 ? d.dot(d) : d.x * d.x + d.y * d.y + (ki - a.x * a.x - a.y * a.y)).squareRoot(), 1e-6)
                        }
                        let s = 1 / dhat
                        for k in 0..<p { row[k] = 0 }
                        row[0] = -2 * (a.x - ar.x) * s
                        row[1] = -2 * (a.y - ar.y) * s
                        if dim == 3 { row[2] = -2 * (a.z - ar.z) * s }
                        row[dim + g] = -2 * r * s
                        row[p] = (r * r - ki + kr) * s
                        for k in 0..<p {
                            if row[k] == 0 { continue }
                            for l in 0..<p { m[k * p + l] += row[k] * row[l] }
                            v[k] += row[k] * row[p]
                        }
                        for k in 0...p { sg[k] += row[k] }
                    }
                    let c = 1 / Double(group.anchors.count + 1)
                    for k in 0..<p {
                        for l in 0..<p { m[k * p + l] -= sg[k] * sg[l] * c }
                        v[k] -= sg[k] * sg[p] * c
                    }
                }
                guard SmallDenseSolver.solve(m, v, n: p) else { return nil }
                x = Vector3(v[0], v[1], dim == 3 ? v[2] : 0)
                hasX = true
            }
            if let z0 { return Vector3(x.x + origin.x, x.y + origin.y, z0) }
            return x + origin
        }
    }

    /// One group: 3D when `fixedHeight` is nil, else x, y at that z.
    public func solve(_ group: TDoAGroup, fixedHeight: Double? = nil) -> Vector3? {
        let dim = fixedHeight == nil ? 3 : 2
        let n = group.anchors.count
        guard n >= dim + 1 else { return nil }
        let p = dim + 1
        let ref = group.reference
        // Coordinates relative to the reference; the height offsets c_i = (z₀ − a_i.z)² in 2D.
        let c1: Double = fixedHeight.map { ($0 - ref.z) * ($0 - ref.z) } ?? 0
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 64) { buf -> Vector3? in
            let m = buf.baseAddress!           // p×p normal matrix GᵀWG
            let v = m + 16                     // p right-hand side, then z
            let keep = m + 24                  // the final GᵀWG, kept for stage 2
            let rows = m + 40                  // one scaled row g̃ (p), h̃ at [p]
            let sg = m + 48                    // Σ g̃ (p)
            let zp = m + 52                    // z′ (p)
            let bdiag = m + 56                 // diag(B₂) (p)
            let h2 = m + 60                    // h₂ (p)
            var z = (0.0, 0.0, 0.0, 0.0)       // x (dim), d_1
            var hasZ = false
            for _ in 0..<stage1Iterations {
                for k in 0..<(p * p) { m[k] = 0 }
                for k in 0..<p { v[k] = 0 }
                // Sums of g̃ and h̃ for the centring term −(Σg̃)(Σg̃)ᵀ/(n+1).
                for k in 0..<p { sg[k] = 0 }
                var sh = 0.0
                for i in 0..<n {
                    let a = group.anchors[i] - ref
                    let r = group.rangeDifferences[i]
                    let ki: Double
                    let dhat: Double
                    if let z0 = fixedHeight {
                        let ci = (z0 - group.anchors[i].z) * (z0 - group.anchors[i].z)
                        ki = a.x * a.x + a.y * a.y + ci
                        dhat = hasZ ? max(((z.0 - a.x) * (z.0 - a.x) + (z.1 - a.y) * (z.1 - a.y) + ci).squareRoot(), 1e-6) : 1
                        rows[0] = -2 * a.x; rows[1] = -2 * a.y; rows[2] = -2 * r
                    } else {
                        ki = a.dot(a)
                        dhat = hasZ ? max(((z.0 - a.x) * (z.0 - a.x) + (z.1 - a.y) * (z.1 - a.y) + (z.2 - a.z) * (z.2 - a.z)).squareRoot(), 1e-6) : 1
                        rows[0] = -2 * a.x; rows[1] = -2 * a.y; rows[2] = -2 * a.z; rows[3] = -2 * r
                    }
                    let s = 1 / dhat
                    rows[p] = (r * r - ki + c1) * s
                    for k in 0..<p { rows[k] *= s }
                    for k in 0..<p {
                        for l in 0..<p { m[k * p + l] += rows[k] * rows[l] }
                        v[k] += rows[k] * rows[p]
                    }
                    for k in 0..<p { sg[k] += rows[k] }
                    sh += rows[p]
                }
                let total = 1 / Double(n + 1)
                for k in 0..<p {
                    for l in 0..<p { m[k * p + l] -= sg[k] * sg[l] * total }
                    v[k] -= sg[k] * sh * total
                }
                for k in 0..<(p * p) { keep[k] = m[k] }
                guard SmallDenseSolver.solve(m, v, n: p) else { return nil }
                z = (v[0], v[1], p == 4 ? v[2] : 0, v[p - 1])
                hasZ = true
            }
            let stage1 = fixedHeight.map { Vector3(z.0 + ref.x, z.1 + ref.y, $0) } ?? Vector3(z.0 + ref.x, z.1 + ref.y, z.2 + ref.z)
            // Stage 2: h₂ = [z′_k²; d̂_1² − c_1], G₂ = [I; 1ᵀ], W₂ = B₂⁻¹ M B₂⁻¹, B₂ = diag(z′).
            zp[0] = z.0; zp[1] = z.1; zp[2] = z.2
            for k in 0..<dim {
                bdiag[k] = zp[k]
                h2[k] = zp[k] * zp[k]
            }
            bdiag[dim] = z.3
            h2[dim] = z.3 * z.3 - c1
            guard z.3 > 0 else { return stage1 }
            for k in 0..<p where abs(bdiag[k]) < 1e-9 { return stage1 }
            // W₂[k][l] = M[k][l] / (b_k b_l); G₂ᵀW₂G₂ = W₂[0..<dim, 0..<dim] + last row/col terms.
            let a2 = m, b2 = v
            for k in 0..<dim {
                for l in 0..<dim {
                    a2[k * dim + l] = keep[k * p + l] / (bdiag[k] * bdiag[l]) + keep[k * p + dim] / (bdiag[k] * bdiag[dim])
                        + keep[dim * p + l] / (bdiag[dim] * bdiag[l]) + keep[dim * p + dim] / (bdiag[dim] * bdiag[dim])
                }
            }
            for k in 0..<dim {
                var s = 0.0
                for j in 0..<p {
                    let wkj = keep[k * p + j] / (bdiag[k] * bdiag[j])
                    let wdj = keep[dim * p + j] / (bdiag[dim] * bdiag[j])
                    s += (wkj + wdj) * h2[j]
                }
                b2[k] = s
            }
            guard SmallDenseSolver.solve(a2, b2, n: dim) else { return stage1 }
            for k in 0..<dim where b2[k] < 0 { return stage1 }
            func signed(_ k: Int) -> Double { (zp[k] < 0 ? -1 : 1) * b2[k].squareRoot() }
            if let z0 = fixedHeight { return Vector3(signed(0) + ref.x, signed(1) + ref.y, z0) }
            return Vector3(signed(0) + ref.x, signed(1) + ref.y, signed(2) + ref.z)
        }
    }
}
