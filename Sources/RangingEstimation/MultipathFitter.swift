import EmulatorMath

/// The numerical side of `MultipathFitEstimator`: the variable-projection cost of a channel
/// layout over all antenna paths (evaluated without allocating, fixed-size stack storage), the
/// starts for one, two and three paths, and the Levenberg–Marquardt refinement on the
/// round-trip model.
struct MultipathFitter {
    let data: MultipathObservations
    let maxExcess: Double
    /// The shortest excess length fitted: below it two paths are one for 74 MHz of aperture.
    static let minimumExcess = 0.2
    /// Round-trip phase per metre of one-way distance per channel: 4π·1 MHz/c.
    static let radiansPerMetre = 4 * Double.pi * Ranging.toneSpacing / Ranging.speedOfLight
    /// The periodogram: one-way distance bin b·R/size, power summed over the paths.
    private(set) var profile: [Double] = []
    static let profileSize = 512
    private let fft = FFT(size: MultipathFitter.profileSize)

    /// The first path must carry this fraction of the strongest path's one-way amplitude.
    let significance: Double

    init(data: MultipathObservations, maxExcess: Double, significance: Double) {
        self.data = data
        self.significance = significance
        self.maxExcess = max(Self.minimumExcess * 3, maxExcess)
    }

    // MARK: The cost

    /// What the cost needs of the data for a layout: b_p = Aᴴz_p (6 per path) and the upper
    /// triangle of G = AᴴA (36 per channel group; the diagonal is the channel count).
    struct Projections {
        var b = InlineArray<24, Complex>(repeating: .zero)
        var g = InlineArray<144, Complex>(repeating: .zero)
    }

    /// Component positions (metres) and how fast each turns per channel slot (radians per
    /// metre): the round-trip components of a fit, or one-way paths.
    struct Layout {
        var positions = InlineArray<6, Double>(repeating: 0)
        var count: Int
        var radiansPerMetre: Double

        init(_ fit: MultipathFit) {
            count = fit.componentCount
            radiansPerMetre = MultipathFitter.radiansPerMetre
            for a in 0..<count { positions[a] = fit.position(a) }
        }

        /// One-way paths at d₀ and d₀ + Δ₁ (half the round trip's phase per metre).
        init(oneWay fit: MultipathFit) {
            count = fit.order
            radiansPerMetre = MultipathFitter.radiansPerMetre / 2
            positions[0] = fit.parameters[0]
            for l in 1..<max(1, count) { positions[l] = fit.parameters[0] + fit.parameters[l] }
        }
    }

    /// b and G for a layout over `values` (path after path on the slot grid), in one pass over
    /// the channel slots.
    func projections(_ layout: Layout, _ values: UnsafeBufferPointer<Complex>) -> Projections {
        let m = layout.count
        let slots = MultipathObservations.slots
        let paths = data.pathCount
        let groups = data.sharedChannels ? 1 : paths
        var rot = InlineArray<6, Complex>(repeating: .zero)
        var e = InlineArray<6, Complex>(repeating: .zero)
        for a in 0..<m {
            let w = layout.radiansPerMetre * layout.positions[a]
            rot[a] = Complex(phase: w)
            e[a] = Complex(phase: w * Double(data.firstSlot))
        }
        var pr = Projections()
        // Two components (every one-way start the two-path grid ranks): the same sums, unrolled.
        if m == 2 {
            var e0 = e[0], e1 = e[1]
            let r0 = rot[0], r1 = rot[1]
            data.present.withUnsafeBufferPointer { has in
                for k in data.firstSlot...data.lastSlot {
                    for p in 0..<paths where has[p * slots + k] {
                        let v = values[p * slots + k]
                        pr.b[p * 6] += e0 * v
                        pr.b[p * 6 + 1] += e1 * v
                    }
                    for q in 0..<groups where has[q * slots + k] { pr.g[q * 36 + 1] += e0 * e1.conjugate }
                    e0 = e0 * r0
                    e1 = e1 * r1
                }
            }
            return pr
        }
        data.present.withUnsafeBufferPointer { has in
            for k in data.firstSlot...data.lastSlot {
                for p in 0..<paths where has[p * slots + k] {
                    let v = values[p * slots + k]
                    for a in 0..<m { pr.b[p * 6 + a] += e[a] * v }
                }
                for q in 0..<groups where has[q * slots + k] {
                    for a in 0..<m {
                        for c in (a + 1)..<max(a + 1, m) { pr.g[q * 36 + a * 6 + c] += e[a] * e[c].conjugate }
                    }
                }
                for a in 0..<m { e[a] = e[a] * rot[a] }
            }
        }
        return pr
    }

    /// J = Σ_p ‖z_p‖² − b_pᴴG_p⁻¹b_p for the fit's layout with free amplitudes; with
    /// `amplitudes`, also the least-squares amplitudes c_p = G_p⁻¹b_p (path after path,
    /// `componentCount` each).
    func cost(_ fit: MultipathFit, amplitudes: UnsafeMutablePointer<Complex>? = nil) -> Double {
        data.values.withUnsafeBufferPointer { z in
            data.energy.withUnsafeBufferPointer { cost(Layout(fit), values: z, energy: $0, amplitudes: amplitudes) }
        }
    }

    /// The same for any layout over `values` whose paths have `energy` Σ_k |v_pk|².
    func cost(_ layout: Layout, values: UnsafeBufferPointer<Complex>, energy: UnsafeBufferPointer<Double>,
              amplitudes: UnsafeMutablePointer<Complex>? = nil) -> Double {
        let m = layout.count
        let paths = data.pathCount
        let pr = projections(layout, values)
        let b = pr.b, g = pr.g
        var total = 0.0
        for p in 0..<paths {
            let q = data.sharedChannels ? 0 : p
            // Cholesky G = LLᴴ (G's diagonal is the channel count; a small ridge keeps nearly
            // coincident components solvable), then y = L⁻¹b and bᴴG⁻¹b = ‖y‖².
            var l = InlineArray<36, Complex>(repeating: .zero)
            let n = Double(data.channelCounts[q])
            for j in 0..<m {
                var d = n * (1 + 1e-9)
                for k in 0..<j { d -= l[j * 6 + k].magnitudeSquared }
                guard d > 1e-12 * n else { return energy.reduce(0, +) }
                let ljj = d.squareRoot()
                l[j * 6 + j] = Complex(ljj)
                for i in (j + 1)..<max(j + 1, m) {
                    // G[i][j] = conj(G[j][i]), the stored upper triangle.
                    var s = g[q * 36 + j * 6 + i].conjugate
                    for k in 0..<j { s = s - l[i * 6 + k] * l[j * 6 + k].conjugate }
                    l[i * 6 + j] = s * (1 / ljj)
                }
            }
            var y = InlineArray<6, Complex>(repeating: .zero)
            var quad = 0.0
            for i in 0..<m {
                var s = b[p * 6 + i]
                for k in 0..<i { s = s - l[i * 6 + k] * y[k] }
                y[i] = s * (1 / l[i * 6 + i].re)
                quad += y[i].magnitudeSquared
            }
            total += max(0, energy[p] - quad)
            if let out = amplitudes {
                // Back substitution Lᴴc = y.
                for i in stride(from: m - 1, through: 0, by: -1) {
                    var s = y[i]
                    for k in (i + 1)..<max(i + 1, m) { s = s - l[k * 6 + i].conjugate * out[p * m + k] }
                    out[p * m + i] = s * (1 / l[i * 6 + i].re)
                }
            }
        }
        return total
    }

    /// The least-squares amplitudes of `fit`, path after path.
    func amplitudes(_ fit: MultipathFit) -> [Complex] {
        var out = [Complex](repeating: .zero, count: data.pathCount * fit.componentCount)
        out.withUnsafeMutableBufferPointer { _ = cost(fit, amplitudes: $0.baseAddress) }
        return out
    }

    // MARK: Starts

    /// One path: the periodogram's peak, polished.
    mutating func fitOnePath() -> MultipathFit {
        computeProfile()
        return refine(MultipathFit(order: 1, parameters: [Self.interpolatedBin(profile, profileMaximum) * binMetres, 0, 0]))
    }

    /// Two paths. The starts come from the one-way tones (`oneWayTones`): for one-way paths
    /// at d₀ and d₀ + Δ the free-amplitude cost is exact and cheap, so a grid of excess lengths
    /// with the first path before and after the one-path estimate (a reflection the IFFT cannot
    /// resolve pulls its peak late when it adds and early when it cancels), and the pairs of
    /// resolved periodogram peaks, are ranked on it; the best two, with g = a₀², r = a₁/a₀
    /// from their one-way amplitudes, are refined on the round-trip model.
    func fitTwoPaths(around one: MultipathFit, worthBelow: Double) -> MultipathFit? {
        let paths = data.pathCount
        let (h, energy) = oneWayTones(slope: one.distance)
        var starts = BestStarts(capacity: 2)
        // Where the tones dip toward the noise (a reflection nearly as strong as the direct
        // path, cancelling), the sign of √z across the notch is a coin toss and the one-way
        // ranking can be misled: the same grid is then also ranked on the round-trip cost
        // (three free components), which no sign can mislead.
        let notched = hasNotch()
        var roundTrip = BestStarts(capacity: 1)
        let d1 = one.distance
        let peaks = profilePeaks(limit: 5)
        h.withUnsafeBufferPointer { hv in
            energy.withUnsafeBufferPointer { ev in
                func offer(_ d0: Double, _ excess: Double) {
                    var f = MultipathFit(order: 2, parameters: [d0, excess, 0])
                    f.cost = cost(Layout(oneWay: f), values: hv, energy: ev)
                    starts.offer(f)
                    if notched { roundTrip.offer(relaxed(f)) }
                }
                for excess in [0.4, 0.7, 1.0, 1.4, 2.0, 2.8, 4.0] where excess <= maxExcess {
                    var d0 = d1 - excess - 0.45
                    while d0 <= d1 + 0.3 + excess / 2 {
                        offer(d0, excess)
                        d0 += 0.3
                    }
                }
                for i in peaks {
                    for j in peaks where j != i {
                        let gap = Ranging.circularDifference(j, i)
                        guard gap > Self.minimumExcess else { continue }
                        for excess in [gap, 2 * gap] where excess <= maxExcess { offer(i, excess) }
                    }
                }
            }
        }
        var seeded: [(MultipathFit, InlineArray<12, Complex>?)] = []
        for start in starts.fits {
            var a = [Complex](repeating: .zero, count: 2 * paths)
            h.withUnsafeBufferPointer { hv in
                energy.withUnsafeBufferPointer { ev in
                    a.withUnsafeMutableBufferPointer { _ = cost(Layout(oneWay: start), values: hv, energy: ev, amplitudes: $0.baseAddress) }
                }
            }
            var initial = InlineArray<12, Complex>(repeating: .zero)
            for p in 0..<paths {
                let a0 = a[2 * p].magnitudeSquared > 0 ? a[2 * p] : Complex(1e-3)
                initial[3 * p] = a0 * a0
                initial[3 * p + 1] = a[2 * p + 1] / a0
            }
            seeded.append((start, initial))
        }
        return race(seeded + roundTrip.fits.map { ($0, nil) }, worthBelow: worthBelow)
    }

    /// Whether some antenna path has a tone whose power is under 5 % of the path's mean: a
    /// notch where the channel nearly cancels (a reflection of 0.6 or more at the wrong phase;
    /// one of 0.3, as in the tool's `light` channel, never dips below 17 %); or a channel whose
    /// every tone was judged bad, which is where such a notch hides once its weakest tones are
    /// dropped (a strong reflection at 15 dB: the one-way signs then carry on across the gap as
    /// if nothing turned, rank the true layout last, and the fit lands in a wrong basin).
    func hasNotch() -> Bool {
        if data.hasRejectedChannels { return true }
        let slots = MultipathObservations.slots
        for p in 0..<data.pathCount {
            let floor = 0.05 * data.energy[p] / Double(data.channelCounts[p])
            for k in data.firstSlot...data.lastSlot where data.present[p * slots + k] && data.values[p * slots + k].magnitudeSquared < floor {
                return true
            }
        }
        return false
    }

    /// A square root of each round-trip tone, h_pk = ±√z_pk, the sign chosen so that h turns
    /// smoothly from channel to channel once the one-path slope is taken out (z = g·h², so
    /// these are the one-way tones up to √g), and each path's Σ_k |h_pk|².
    func oneWayTones(slope distance: Double) -> ([Complex], [Double]) {
        let slots = MultipathObservations.slots
        var h = [Complex](repeating: .zero, count: data.values.count)
        var energy = [Double](repeating: 0, count: data.pathCount)
        let w = Self.radiansPerMetre * distance
        for p in 0..<data.pathCount {
            var previous: Complex?
            for k in data.firstSlot...data.lastSlot where data.present[p * slots + k] {
                let z = data.values[p * slots + k]
                // The slope taken out, the root's phase is half what is left.
                let flat = z * Complex(phase: w * Double(k))
                var root = Complex(phase: flat.phase / 2) * flat.magnitude.squareRoot()
                if let previous, root.re * previous.re + root.im * previous.im < 0 { root = -root }
                previous = root
                h[p * slots + k] = root * Complex(phase: -w / 2 * Double(k))
                energy[p] += z.magnitude
            }
        }
        return (h, energy)
    }

    /// Three paths: the two-path fit with a third one-way path where the residual's periodogram
    /// peaks (that peak taken as the new path's own component, or as its cross term with the
    /// first path), before or after the first; the best two raced.
    func fitThreePaths(from two: MultipathFit, worthBelow: Double) -> MultipathFit? {
        var starts = BestStarts(capacity: 2)
        let d0 = two.distance, excess = two.parameters[1]
        for r in residualPeaks(of: two, limit: 2) {
            for d2 in [r, 2 * r - d0] {
                let gap = Ranging.circularDifference(d2, d0)
                var p: InlineArray<3, Double>
                if gap > 0 {
                    let (a, b) = (min(excess, gap), max(excess, gap))
                    guard a >= Self.minimumExcess, b - a >= Self.minimumExcess, b <= maxExcess else { continue }
                    p = [d0, a, b]
                } else {
                    // An earlier path: it becomes the first.
                    let e1 = -gap, e2 = -gap + excess
                    guard e1 >= Self.minimumExcess, e2 <= maxExcess else { continue }
                    p = [d2, e1, e2]
                }
                starts.offer(relaxed(MultipathFit(order: 3, parameters: p)))
            }
        }
        return race(starts, worthBelow: worthBelow)
    }

    /// A few iterations from each start, then to convergence those whose cost is not still
    /// above `worthBelow` (what the order must reach to be chosen) by more than the rest of a
    /// refinement lowers it; when none is left, the leader is returned as it is, as it will not
    /// be taken. Saves
    /// the iterations an extra path spends wandering over noise.
    private func race(_ starts: [(MultipathFit, InlineArray<12, Complex>?)], worthBelow: Double) -> MultipathFit? {
        // A heat's fit may still be passing through a degenerate layout; only the result is judged.
        let heats = starts.map { refine($0.0, initial: $0.1, iterations: Self.heatIterations) }.filter { $0.cost.isFinite }
        guard let leader = heats.min(by: { $0.cost < $1.cost }) else { return nil }
        guard leader.cost < Self.hopelessFactor * worthBelow else { return leader }
        // Every heat still in the running goes on: the basin that ends lowest is not always
        // ahead after a few iterations. A fit that cannot place its first path is returned
        // only when nothing else is (it is never chosen, but it tells the quality that the
        // data want another model): in light multipath a basin of two strong cancelling paths
        // often fits a little better than the true one and cannot place its first path, and
        // returning it would lose the true basin to the one-path fit's bias.
        var best: MultipathFit?
        for heat in heats where heat.cost < Self.hopelessFactor * worthBelow {
            let final = heat.iterations < Self.heatIterations ? heat : refine(heat, initial: heat.gains)
            // A fit that places its first path beats any other; among alike, the lower cost.
            func rank(_ f: MultipathFit) -> (Int, Double) { (f.placesFirstPath ? 0 : 1, f.cost) }
            guard final.cost.isFinite, best.map({ rank(final) < rank($0) }) ?? true else { continue }
            best = final
        }
        return best
    }

    private func race(_ starts: BestStarts, worthBelow: Double) -> MultipathFit? {
        race(starts.fits.map { ($0, nil) }, worthBelow: worthBelow)
    }

    /// A fit whose components carry this many times the tones' power is one of coincident paths
    /// cancelling: a numerical breakdown, not a room. Real reflections reach far more than
    /// the 16 once used here (0.4 at 1.5 m about 13; 0.65–0.9 at 1–3 m, cancelling in the band,
    /// 17–200): called degenerate, their right two-path fits were dropped for the one-path
    /// fit's metre of bias, and one procedure in 70 of the strong two-ray family went 1–4 m
    /// early. From 10⁴ up the estimates on every generated family tried are those of no
    /// threshold at all (64 still dropped a few); whether a second path is real is MDL's and
    /// σ̂'s to say.
    static let degenerateFactor = 1e4

    /// Iterations each start gets in `race`.
    static let heatIterations = 3
    /// How far above what the order must reach a leader may be and still be refined.
    static let hopelessFactor = 1.05

    // MARK: The round-trip refinement

    /// Levenberg–Marquardt on the round-trip model itself, z_pk = g_p·h_pk², h_pk =
    /// Σ_l r_pl·e^{−jωd_l k/2} (r_p0 = 1, d_l = d₀ + Δ_l): the positions and, per antenna path,
    /// β₀² = g_p and the ratios r_pl = β_l/β₀, started from the free amplitudes of `start`'s
    /// layout. The fit comes back with its cost, d₀'s predicted standard deviation
    /// (σ̂²·(JᵀJ)⁻¹₀₀, σ̂² = cost/(residuals − parameters)), and whether it is degenerate or its
    /// first path insignificant.
    func refine(_ start: MultipathFit, initial: InlineArray<12, Complex>? = nil, iterations: Int = 25) -> MultipathFit {
        let order = start.order
        let paths = data.pathCount
        let perPath = 2 * order
        let n = order + paths * perPath
        let m = 2 * data.toneCount
        let slots = MultipathObservations.slots
        let halfOmega = Self.radiansPerMetre / 2
        // Per antenna path g and the ratios: given, or from the free amplitudes of the layout
        // (g = c₀, r_l = c_l/(2c₀) from the cross terms 2g·r_l).
        var start0 = InlineArray<12, Complex>(repeating: .zero)
        if let initial {
            start0 = initial
        } else {
            let free = amplitudes(start)
            let mc = start.componentCount
            for p in 0..<paths {
                let c0 = free[p * mc]
                let g = c0.magnitudeSquared > 0 ? c0 : Complex(1e-6)
                start0[3 * p] = g
                for l in 1..<max(1, order) { start0[3 * p + l] = free[p * mc + l] * Complex(0.5) / g }
            }
        }
        var fit = start
        withUnsafeTemporaryAllocation(of: Double.self, capacity: n + n * n) { buffer in
            let theta = buffer.baseAddress!, normal = theta + n
            for i in 0..<order { theta[i] = start.parameters[i] }
            for p in 0..<paths {
                for l in 0..<order {
                    theta[order + p * perPath + 2 * l] = start0[3 * p + l].re
                    theta[order + p * perPath + 2 * l + 1] = start0[3 * p + l].im
                }
            }
            let result = data.values.withUnsafeBufferPointer { z in
                data.present.withUnsafeBufferPointer { has in
                    LevenbergMarquardt.minimize(theta, n: n, iterations: iterations, tolerance: 1e-9, normal: normal) { t, normal, grad in
                        // The domain: ordered excess lengths within bounds.
                        if order >= 2, t[1] < Self.minimumExcess || t[1] > maxExcess { return nil }
                        if order == 3, t[2] < t[1] + Self.minimumExcess || t[2] > maxExcess { return nil }
                        if let normal, let grad {
                            for i in 0..<(n * n) { normal[i] = 0 }
                            for i in 0..<n { grad[i] = 0 }
                        }
                        var cost = 0.0
                        var rot = InlineArray<3, Complex>(repeating: .zero)
                        for l in 0..<order { rot[l] = Complex(phase: -halfOmega * (t[0] + (l == 0 ? 0 : t[l]))) }
                        for p in 0..<paths {
                            let base = order + p * perPath
                            let g = Complex(t[base], t[base + 1])
                            var r = InlineArray<3, Complex>(repeating: .one)
                            for l in 1..<max(1, order) { r[l] = Complex(t[base + 2 * l], t[base + 2 * l + 1]) }
                            var e = InlineArray<3, Complex>(repeating: .zero)
                            for l in 0..<order { e[l] = Complex(phase: -halfOmega * (t[0] + (l == 0 ? 0 : t[l])) * Double(data.firstSlot)) }
                            // Where each derivative's row starts in JᵀJ and which entry of Jᵀr it
                            // feeds: the positions, then this antenna path's own parameters.
                            var row = InlineArray<9, Int>(repeating: 0)
                            for a in 0..<(3 * order) { row[a] = a < order ? a : base + a - order }
                            for k in data.firstSlot...data.lastSlot {
                                defer { for l in 0..<order { e[l] = e[l] * rot[l] } }
                                guard has[p * slots + k] else { continue }
                                var h = Complex.zero
                                for l in 0..<order { h += r[l] * e[l] }
                                let h2 = h * h
                                let v = g * h2 - z[p * slots + k]
                                cost += v.magnitudeSquared
                                guard let normal, let grad else { continue }
                                // The model's derivative by each real parameter this tone depends on:
                                // the positions (d₀ moves every path: ∂e_l/∂d = −j(ω/2)k·e_l), then
                                // this antenna path's g and ratios; the others' are zero.
                                var d = InlineArray<9, Complex>(repeating: .zero)
                                let gh2 = g * h * 2
                                let phase = Complex(0, -halfOmega * Double(k))
                                d[0] = gh2 * h * phase
                                d[order] = h2
                                d[order + 1] = Complex(-h2.im, h2.re)                   // ∂/∂Im g = j·h²
                                for l in 1..<max(1, order) {
                                    d[l] = gh2 * r[l] * e[l] * phase
                                    let dr = gh2 * e[l]
                                    d[order + 2 * l] = dr
                                    d[order + 2 * l + 1] = Complex(-dr.im, dr.re)
                                }
                                // Upper triangle of JᵀJ (indices ascend: positions, then this path's).
                                let count = 3 * order
                                for a in 0..<count {
                                    let ia = row[a]
                                    let da = d[a]
                                    grad[ia] += da.re * v.re + da.im * v.im
                                    let line = normal + ia * n
                                    for b in a..<count {
                                        line[row[b]] += da.re * d[b].re + da.im * d[b].im
                                    }
                                }
                            }
                        }
                        if let normal {
                            for a in 0..<n { for b in (a + 1)..<max(a + 1, n) { normal[b * n + a] = normal[a * n + b] } }
                        }
                        return cost
                    }
                }
            }
            guard let result else { return }
            for i in 0..<order { fit.parameters[i] = theta[i] }
            fit.cost = result.cost
            fit.iterations = result.iterations
            var gains = InlineArray<12, Complex>(repeating: .zero)
            for p in 0..<paths {
                for l in 0..<order { gains[3 * p + l] = Complex(theta[order + p * perPath + 2 * l], theta[order + p * perPath + 2 * l + 1]) }
            }
            fit.gains = gains
            // σ̂ of d₀ from (JᵀJ)⁻¹₀₀.
            withUnsafeTemporaryAllocation(of: Double.self, capacity: n * n + n) { w in
                let a = w.baseAddress!, x = a + n * n
                for i in 0..<(n * n) { a[i] = normal[i] }
                for i in 0..<n { x[i] = i == 0 ? 1 : 0 }
                let dof = Double(m - n)
                if dof > 0, SmallDenseSolver.solve(a, x, n: n), x[0] > 0 {
                    fit.standardDeviation = (result.cost / dof * x[0]).squareRoot()
                }
            }
            // Degenerate: components far stronger than the tones (coincident paths cancelling);
            // significant: β₀ against the later paths', weighted by each antenna path's |β₀|.
            var direct = 0.0, later = InlineArray<2, Double>(repeating: 0)
            for p in 0..<paths {
                let base = order + p * perPath
                let g = Complex(theta[base], theta[base + 1])
                var power = 1.0
                let w = g.magnitude.squareRoot()
                direct += w
                for l in 1..<max(1, order) {
                    let r = Complex(theta[base + 2 * l], theta[base + 2 * l + 1])
                    power += 4 * r.magnitudeSquared + r.magnitudeSquared * r.magnitudeSquared
                    later[l - 1] += w * r.magnitude
                }
                if g.magnitudeSquared * power > Self.degenerateFactor * data.energy[p] / Double(data.channelCounts[p]) { fit.isDegenerate = true }
            }
            fit.firstPathIsSignificant = direct >= significance * max(later[0], later[1])
        }
        return fit
    }

    /// The fit with its free-amplitude cost (the cheap ranking of starts).
    private func relaxed(_ fit: MultipathFit) -> MultipathFit {
        var f = fit
        f.cost = cost(f)
        return f
    }

    // MARK: A first path the fit missed

    /// Where `fit` missed the first path, if it did: the periodogram's earliest significant
    /// peak (within `window` metres before its maximum, the earliest local maximum whose
    /// magnitude is at least `threshold` × the maximum's: Nordic `cs_de`'s first-path rule,
    /// reference estimation.md §1.1; never before the reported window's −10 m, as a peak 20 m
    /// before an accessory at 1 m would be read as one at 128 m), when it lies more than `margin` before the fit's
    /// first path and the fit leaves that energy unexplained (the residual's periodogram there
    /// still reaches half the threshold's magnitude, so a sidelobe of the fitted paths is not
    /// taken for a path).
    /// In z the earliest component is the first path's own, at d₀, whatever the later paths'
    /// cross terms.
    func missedFirstPath(by fit: MultipathFit, threshold: Double = 0.4, window: Double = 30, margin: Double) -> Double? {
        let n = profile.count
        let top = profileMaximum
        @inline(__always) func at(_ power: [Double], _ i: Int) -> Double { power[((i % n) + n) % n] }
        let floor = threshold * threshold * profile[top]
        // The search stays inside the reported window [−10 m, 139.9 m): a first path before it
        // would be read as one beyond 139.9 m, after the strongest path, not before it.
        var topDistance = Double(top) * binMetres
        if topDistance >= Ranging.ambiguityRange - Ranging.nearMargin { topDistance -= Ranging.ambiguityRange }
        let span = min(window, topDistance + Ranging.nearMargin)
        var peak = top
        for i in (top - max(0, min(n / 2, Int(span / binMetres))))...top
        where at(profile, i) >= floor && at(profile, i) > at(profile, i - 1) && at(profile, i) >= at(profile, i + 1) {
            peak = (i + n) % n
            break
        }
        let early = Self.interpolatedBin(profile, peak) * binMetres
        guard Ranging.circularDifference(fit.distance, early) > margin else { return nil }
        let residual = residualProfile(of: fit)
        guard max(at(residual, peak - 1), at(residual, peak), at(residual, peak + 1)) >= floor / 4 else { return nil }
        return early
    }

    /// A fit whose first path is at the earliest significant energy `early`, for a channel whose
    /// chosen fit put its first path later (dense multipath: more paths than the model has, the
    /// strongest taken first). Starts: the first path at `early` with a second at each of the
    /// chosen fit's paths, and with the chosen fit's first two; refined, the lowest cost that
    /// keeps its first path within `binMetres × 2` of `early` wins; otherwise the one-path fit
    /// started at `early`.
    func fitFrom(earliest early: Double, after chosen: MultipathFit) -> MultipathFit {
        var paths: [Double] = [chosen.distance]
        for l in 1..<max(1, chosen.order) { paths.append(chosen.distance + chosen.parameters[l]) }
        var starts: [MultipathFit] = []
        for d in paths {
            let excess = Ranging.circularDifference(d, early)
            guard excess >= Self.minimumExcess, excess <= maxExcess else { continue }
            starts.append(MultipathFit(order: 2, parameters: [early, excess, 0]))
        }
        if paths.count >= 2 {
            let a = Ranging.circularDifference(paths[0], early), b = Ranging.circularDifference(paths[1], early)
            if a >= Self.minimumExcess, b >= a + Self.minimumExcess, b <= maxExcess {
                starts.append(MultipathFit(order: 3, parameters: [early, a, b]))
            }
        }
        var best: MultipathFit?
        for start in starts {
            let fit = refine(start)
            guard fit.cost.isFinite, !fit.isDegenerate, fit.firstPathIsSignificant,
                  abs(Ranging.circularDifference(fit.distance, early)) <= 2 * binMetres else { continue }
            if fit.cost < best?.cost ?? .infinity { best = fit }
        }
        if let best { return best }
        let one = refine(MultipathFit(order: 1, parameters: [early, 0, 0]))
        if one.cost.isFinite, abs(Ranging.circularDifference(one.distance, early)) <= 2 * binMetres { return one }
        var fallback = MultipathFit(order: 1, parameters: [early, 0, 0], cost: one.cost)
        fallback.standardDeviation = binMetres
        return fallback
    }

    // MARK: Periodogram

    var binMetres: Double { Ranging.ambiguityRange / Double(Self.profileSize) }

    private mutating func computeProfile() {
        profile = periodogram { p, k in data.values[p * MultipathObservations.slots + k] }
    }

    /// Σ_p |IDFT of path p's tones|² on the profile grid; `value(p, k)` gives the tones.
    private func periodogram(_ value: (Int, Int) -> Complex) -> [Double] {
        let size = Self.profileSize
        var power = [Double](repeating: 0, count: size)
        var re = [Double](repeating: 0, count: size), im = re
        for p in 0..<data.pathCount {
            for i in 0..<size {
                re[i] = 0
                im[i] = 0
            }
            for k in data.firstSlot...data.lastSlot where data.present[p * MultipathObservations.slots + k] {
                let v = value(p, k)
                re[k] = v.re
                im[k] = v.im
            }
            fft.transform(re: &re, im: &im, inverse: true)
            for i in 0..<size { power[i] += re[i] * re[i] + im[i] * im[i] }
        }
        return power
    }

    /// Positions (metres) of the strongest local maxima of `power` above 5 % of its peak.
    private func peaks(of power: [Double], limit: Int) -> [Double] {
        let n = power.count
        guard let top = power.max(), top > 0 else { return [] }
        var found: [(Double, Double)] = []
        for i in 0..<n {
            let l = power[(i + n - 1) % n], c = power[i], r = power[(i + 1) % n]
            guard c >= l, c > r, c >= 0.05 * top else { continue }
            found.append((Self.interpolatedBin(power, i) * binMetres, c))
        }
        return found.sorted { $0.1 > $1.1 }.prefix(limit).map(\.0)
    }

    /// The bin of the periodogram's maximum.
    private var profileMaximum: Int {
        var top = 0
        for i in 1..<profile.count where profile[i] > profile[top] { top = i }
        return top
    }

    /// Bin `i` of a circular `power` profile moved to its parabola's vertex through the
    /// neighbours (at most half a bin either way; unmoved where the three do not curve down).
    private static func interpolatedBin(_ power: [Double], _ i: Int) -> Double {
        let n = power.count
        let l = power[(i + n - 1) % n], c = power[i], r = power[(i + 1) % n]
        let den = l - 2 * c + r
        return Double(i) + (den < 0 ? max(-0.5, min(0.5, 0.5 * (l - r) / den)) : 0)
    }

    private func profilePeaks(limit: Int) -> [Double] { peaks(of: profile, limit: limit) }

    /// The peaks of the periodogram of what `fit` leaves unexplained.
    private func residualPeaks(of fit: MultipathFit, limit: Int) -> [Double] {
        peaks(of: residualProfile(of: fit), limit: limit)
    }

    /// The periodogram of what `fit` (with free amplitudes) leaves unexplained.
    private func residualProfile(of fit: MultipathFit) -> [Double] {
        let c = amplitudes(fit)
        let m = fit.componentCount
        var w = InlineArray<6, Double>(repeating: 0)
        for a in 0..<m { w[a] = Self.radiansPerMetre * fit.position(a) }
        return periodogram { p, k in
            var model = Complex.zero
            for a in 0..<m { model += c[p * m + a] * Complex(phase: -w[a] * Double(k)) }
            return data.values[p * MultipathObservations.slots + k] - model
        }
    }
}

/// The few lowest-cost starts seen, distinct from one another.
struct BestStarts {
    private(set) var fits: [MultipathFit] = []
    let capacity: Int

    init(capacity: Int = 3) { self.capacity = capacity }

    mutating func offer(_ fit: MultipathFit) {
        guard fit.cost.isFinite else { return }
        // A start within 0.25 m of a kept one in every parameter is the same basin.
        if let i = fits.firstIndex(where: { kept in
            (0..<fit.order).allSatisfy { abs(Ranging.circularDifference(kept.parameters[$0], fit.parameters[$0])) < 0.25 }
        }) {
            if fit.cost < fits[i].cost { fits[i] = fit }
            return
        }
        if fits.count < capacity {
            fits.append(fit)
        } else if let worst = fits.indices.max(by: { fits[$0].cost < fits[$1].cost }), fit.cost < fits[worst].cost {
            fits[worst] = fit
        }
    }
}

