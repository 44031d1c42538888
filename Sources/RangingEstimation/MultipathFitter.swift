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

    /// b and G for the fit's component positions, in one pass over the channel slots.
    func projections(_ fit: MultipathFit) -> Projections {
        let m = fit.componentCount
        let slots = MultipathObservations.slots
        let paths = data.pathCount
        let groups = data.sharedChannels ? 1 : paths
        var rot = InlineArray<6, Complex>(repeating: .zero)
        var e = InlineArray<6, Complex>(repeating: .zero)
        for a in 0..<m {
            let w = Self.radiansPerMetre * fit.position(a)
            rot[a] = Complex(phase: w)
            e[a] = Complex(phase: w * Double(data.firstSlot))
        }
        var pr = Projections()
        data.values.withUnsafeBufferPointer { z in
            data.present.withUnsafeBufferPointer { has in
                for k in data.firstSlot...data.lastSlot {
                    for p in 0..<paths where has[p * slots + k] {
                        let v = z[p * slots + k]
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
        }
        return pr
    }

    /// J = Σ_p ‖z_p‖² − b_pᴴG_p⁻¹b_p for the fit's layout with free amplitudes; with
    /// `amplitudes`, also the least-squares amplitudes c_p = G_p⁻¹b_p (path after path,
    /// `componentCount` each).
    func cost(_ fit: MultipathFit, amplitudes: UnsafeMutablePointer<Complex>? = nil) -> Double {
        let m = fit.componentCount
        let paths = data.pathCount
        let pr = projections(fit)
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
                guard d > 1e-12 * n else { return data.energy.reduce(0, +) }
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
            total += max(0, data.energy[p] - quad)
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
        var best = 0
        for i in 1..<profile.count where profile[i] > profile[best] { best = i }
        // Parabolic interpolation of the peak, then the refinement.
        let n = profile.count
        let l = profile[(best + n - 1) % n], c = profile[best], r = profile[(best + 1) % n]
        let den = l - 2 * c + r
        let offset = den < 0 ? max(-0.5, min(0.5, 0.5 * (l - r) / den)) : 0
        return refine(MultipathFit(order: 1, parameters: [(Double(best) + offset) * binMetres, 0, 0]))
    }

    /// Two paths: a grid of excess lengths with the first path at and before the one-path
    /// estimate, and the pairs of resolved periodogram peaks, ranked by the free-amplitude cost
    /// (cheap); the best three refined on the round-trip model.
    func fitTwoPaths(around one: MultipathFit) -> MultipathFit? {
        var starts = BestStarts(capacity: 3)
        let d1 = one.distance
        for excess in [0.4, 0.7, 1.0, 1.4, 2.0, 2.8, 4.0] where excess <= maxExcess {
            var d0 = d1 - excess - 0.45
            while d0 <= d1 + 0.45 {
                starts.offer(relaxed(MultipathFit(order: 2, parameters: [d0, excess, 0])))
                d0 += 0.3
            }
        }
        let peaks = profilePeaks(limit: 5)
        for i in peaks {
            for j in peaks where j != i {
                let gap = Ranging.circularDifference(j, i)
                guard gap > Self.minimumExcess else { continue }
                for excess in [gap, 2 * gap] where excess <= maxExcess {
                    starts.offer(relaxed(MultipathFit(order: 2, parameters: [i, excess, 0])))
                }
            }
        }
        return starts.fits.map { refine($0) }.filter { !$0.isDegenerate && $0.cost.isFinite }.min { $0.cost < $1.cost }
    }

    /// Three paths: the two-path fit with a third one-way path where the residual's periodogram
    /// peaks (that peak taken as the new path's own component, or as its cross term with the
    /// first path), before or after the first; the best two starts refined.
    func fitThreePaths(from two: MultipathFit) -> MultipathFit? {
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
        return starts.fits.map { refine($0) }.filter { !$0.isDegenerate && $0.cost.isFinite }.min { $0.cost < $1.cost }
    }

    // MARK: The round-trip refinement

    /// Levenberg–Marquardt on the round-trip model itself, z_pk = g_p·h_pk², h_pk =
    /// Σ_l r_pl·e^{−jωd_l k/2} (r_p0 = 1, d_l = d₀ + Δ_l): the positions and, per antenna path,
    /// β₀² = g_p and the ratios r_pl = β_l/β₀, started from the free amplitudes of `start`'s
    /// layout. The fit comes back with its cost, d₀'s predicted standard deviation
    /// (σ̂²·(JᵀJ)⁻¹₀₀, σ̂² = cost/(residuals − parameters)), and whether it is degenerate or its
    /// first path insignificant.
    func refine(_ start: MultipathFit) -> MultipathFit {
        let order = start.order
        let paths = data.pathCount
        let perPath = 2 * order
        let n = order + paths * perPath
        let m = 2 * data.toneCount
        let slots = MultipathObservations.slots
        let free = amplitudes(start)
        let mc = start.componentCount
        let halfOmega = Self.radiansPerMetre / 2
        var fit = start
        withUnsafeTemporaryAllocation(of: Double.self, capacity: n + n * n) { buffer in
            let theta = buffer.baseAddress!, normal = theta + n
            for i in 0..<order { theta[i] = start.parameters[i] }
            for p in 0..<paths {
                let c0 = free[p * mc]
                let g = c0.magnitudeSquared > 0 ? c0 : Complex(1e-6)
                theta[order + p * perPath] = g.re
                theta[order + p * perPath + 1] = g.im
                for l in 1..<max(1, order) {
                    let r = free[p * mc + l] * Complex(0.5) / g
                    theta[order + p * perPath + 2 * l] = r.re
                    theta[order + p * perPath + 2 * l + 1] = r.im
                }
            }
            let result = data.values.withUnsafeBufferPointer { z in
                data.present.withUnsafeBufferPointer { has in
                    LevenbergMarquardt.minimize(theta, n: n, m: m, iterations: 25, tolerance: 1e-9, normal: normal) { t, res, jac in
                        // The domain: ordered excess lengths within bounds.
                        if order >= 2, t[1] < Self.minimumExcess || t[1] > maxExcess { return false }
                        if order == 3, t[2] < t[1] + Self.minimumExcess || t[2] > maxExcess { return false }
                        if let jac { for i in 0..<(m * n) { jac[i] = 0 } }
                        var row = 0
                        var rot = InlineArray<3, Complex>(repeating: .zero)
                        for l in 0..<order { rot[l] = Complex(phase: -halfOmega * (t[0] + (l == 0 ? 0 : t[l]))) }
                        for p in 0..<paths {
                            let base = order + p * perPath
                            let g = Complex(t[base], t[base + 1])
                            var r = InlineArray<3, Complex>(repeating: .one)
                            for l in 1..<max(1, order) { r[l] = Complex(t[base + 2 * l], t[base + 2 * l + 1]) }
                            var e = InlineArray<3, Complex>(repeating: .zero)
                            for l in 0..<order { e[l] = Complex(phase: -halfOmega * (t[0] + (l == 0 ? 0 : t[l])) * Double(data.firstSlot)) }
                            for k in data.firstSlot...data.lastSlot {
                                defer { for l in 0..<order { e[l] = e[l] * rot[l] } }
                                guard has[p * slots + k] else { continue }
                                var h = Complex.zero
                                for l in 0..<order { h += r[l] * e[l] }
                                let model = g * h * h
                                let v = model - z[p * slots + k]
                                res[row] = v.re
                                res[row + 1] = v.im
                                if let jac {
                                    let h2 = h * h, gh2 = g * h * 2
                                    let re = jac + row * n, im = jac + (row + 1) * n
                                    re[base] = h2.re; im[base] = h2.im                  // ∂/∂Re g
                                    re[base + 1] = -h2.im; im[base + 1] = h2.re         // ∂/∂Im g = j·h²
                                    let phase = Complex(0, -halfOmega * Double(k))      // ∂e_l/∂d_l = −j(ω/2)k·e_l
                                    for l in 0..<order {
                                        let dd = gh2 * r[l] * e[l] * phase
                                        re[0] += dd.re; im[0] += dd.im                  // d₀ moves every path
                                        if l > 0 {
                                            re[l] = dd.re; im[l] = dd.im
                                            let dr = gh2 * e[l]
                                            re[base + 2 * l] = dr.re; im[base + 2 * l] = dr.im
                                            re[base + 2 * l + 1] = -dr.im; im[base + 2 * l + 1] = dr.re
                                        }
                                    }
                                }
                                row += 2
                            }
                        }
                        return true
                    }
                }
            }
            guard let result else { return }
            for i in 0..<order { fit.parameters[i] = theta[i] }
            fit.cost = result.cost
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
                if g.magnitudeSquared * power > 8 * data.energy[p] / Double(data.channelCounts[p]) { fit.isDegenerate = true }
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
            let den = l - 2 * c + r
            let offset = den < 0 ? max(-0.5, min(0.5, 0.5 * (l - r) / den)) : 0
            found.append(((Double(i) + offset) * binMetres, c))
        }
        return found.sorted { $0.1 > $1.1 }.prefix(limit).map(\.0)
    }

    private func profilePeaks(limit: Int) -> [Double] { peaks(of: profile, limit: limit) }

    /// The peaks of the periodogram of what `fit` leaves unexplained.
    private func residualPeaks(of fit: MultipathFit, limit: Int) -> [Double] {
        let c = amplitudes(fit)
        let m = fit.componentCount
        var w = InlineArray<6, Double>(repeating: 0)
        for a in 0..<m { w[a] = Self.radiansPerMetre * fit.position(a) }
        let power = periodogram { p, k in
            var model = Complex.zero
            for a in 0..<m { model += c[p * m + a] * Complex(phase: -w[a] * Double(k)) }
            return data.values[p * MultipathObservations.slots + k] - model
        }
        return peaks(of: power, limit: limit)
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
