import EmulatorMath
import Foundation

/// Maximum-likelihood distance from the round-trip tones of all antenna paths at once: a
/// channel of one, two or three one-way paths is fitted to every tone over the whole 74 MHz
/// aperture, and the first path's length is the distance.
///
/// **Model.** A reciprocal one-way channel H(f) = Σ_l β_l·e^{−j2πf·d_l/c} comes back squared
/// (RAS: the product of both sides' PCTs; inline PCT: the reflector returns the phase it heard
/// at constant amplitude, |H|·e^{j2∠H}, which `ToneSetBuilder` multiplies by its magnitude),
/// so the round-trip tone of path p on channel k is z_pk = Σ_m c_pm·e^{−jω(u_m)k} + noise with
/// ω(u) = 4π·1 MHz·u/c and components at u = (d_i + d_j)/2 for i ≤ j: one path gives d₀; two
/// give d₀, d₀ + Δ/2, d₀ + Δ (Δ the excess length of the reflection); three give six
/// (reference estimation.md §3.1, the doubled multipath components). The component positions
/// are shared by the antenna paths (the same room, antennas centimetres apart); the amplitudes
/// are each path's own, so a path where a reflection cancels the direct ray and one where it
/// adds both inform the same d₀.
///
/// **Fit.** Under white Gaussian noise the ML estimate minimises Σ_p‖z_p − model_p‖². One
/// path starts at the periodogram peak. Two paths start from the one-way tones h = ±√z (the
/// sign by continuity, `MultipathFitter.oneWayTones`), on which one-way paths at d₀ and d₀ + Δ
/// have an exact, cheap free-amplitude (variable-projection, Golub–Pereyra) cost
/// J(θ) = Σ_p ‖h_p‖² − b_pᴴG⁻¹b_p: a grid of (d₀, Δ) around the one-path estimate and the
/// pairs of periodogram peaks are ranked on it, and their amplitudes give g = a₀², r = a₁/a₀.
/// Where a tone dips under 5 % of the mean power (a strong reflection cancelling) the sign of
/// √z across the notch cannot be told, so the grid's best on the round-trip cost (three free
/// components) is raced too.
/// Three paths start from the best two-path fit with a third path at the residual's
/// periodogram peaks (only where two paths were taken). Starts are refined by
/// Levenberg–Marquardt on the round-trip model itself, z_pk = g_p·(Σ_l r_pl·e^{−jωd_l k/2})²
/// (r_p0 = 1), with JᵀJ accumulated over each tone's non-zero derivatives only (the positions
/// and its antenna path's amplitudes); a few iterations from each start first, and no more
/// for starts still above the cost their order needs to be chosen (free space stops there).
/// A fit whose components are far stronger than the tones (coincident paths cancelling) is a
/// fit of noise and is dropped.
///
/// **Order.** By minimum description length on the real observations (n = 2 per tone):
/// MDL = n·ln J + (3L + 2·P·L)·ln n for L one-way paths and P antenna paths: each amplitude's
/// real part costs ln n as in the BIC, each path position 3·ln n, because a position is a
/// frequency whose Fisher information grows as n³ (P. M. Djurić, "A model selection rule for
/// sinusoids in white Gaussian noise", IEEE Trans. SP 44(7), 1996). With the BIC's ln n a
/// position searched over the whole excess range found a spurious second path in about one
/// free-space procedure in 400, costing 40 % of the free-space RMSE. A multipath fit whose
/// first path is weaker than `significance` × a later one, which cannot place its first path
/// (σ̂ over 0.5 m), or whose components cancel (degenerate), is not taken over a simpler one.
///
/// **First path.** d₀ is by construction the earliest path of the fit. In dense multipath
/// (TGn: nine to eighteen taps) three paths are spent on the strongest, which need not include
/// the first: where the periodogram's earliest significant peak (Nordic `cs_de`'s rule: the
/// earliest local maximum at 0.4 of the maximum's magnitude) lies more than half a resolution
/// cell (1 m) before d₀ and the fit leaves that energy unexplained (its residual there still
/// reaches half the threshold), the first path is refitted there
/// (`MultipathFitter.fitFrom(earliest:after:)`). The result wraps onto the 149.9 m ambiguity
/// circle (`Ranging.wrap`).
///
/// **Quality.** quality = e^{−σ_q/`qualityScale`} × good-channel fraction, where σ_q, the
/// predicted error of d₀ in metres (`EstimationDiagnostics.predictedStandardDeviation`), adds
/// three things in quadrature: the fit's own σ̂ = (σ̂²·(JᵀJ)⁻¹₀₀)^½ (σ̂² = cost/(residuals −
/// parameters)); how far every other fit made (other orders, other basins) puts d₀, weighted by
/// how well the data support it against the chosen one, min(1, e^{−ΔMDL/2}); and, for a model
/// the data outgrow, the resolution c/2B times the amplitude it leaves unexplained (its
/// residual's χ² against a model-free noise estimate, `MultipathObservations.noiseVariance`, beyond
/// three standard deviations of χ²'s own spread). A clean free-space fit at 20 dB has σ_q ≈
/// 1.5 cm (quality ≈ 0.85); an unresolved reflection, a rival fit elsewhere, a channel of more
/// paths than the model has, or few tones lower it. What it predicts, on channel families it
/// was not tuned on, is stated and tested in `MultipathFitEstimatorTests.qualityPredictsTheError`.
///
public struct MultipathFitEstimator: DistanceEstimator {
    /// The largest number of one-way paths fitted (1…3).
    public var maxPaths: Int
    /// The longest excess path length a reflection may have, metres.
    public var maxExcess: Double
    /// The first path must be at least this fraction of the strongest one-way path's amplitude.
    public var significance: Double
    /// σ̂ (metres) at which the quality's fit factor is 1/e.
    public var qualityScale: Double
    public var minimumChannels: Int
    /// The one-way resolution c/2B of the 74 MHz the CS channels span, metres.
    static let resolution = Ranging.speedOfLight / (2 * 74e6)
    /// How far after the periodogram's earliest significant peak a fit's first path may lie
    /// before it is taken to have missed the first path: half a resolution cell, about 1 m.
    static let missedPathMargin = resolution / 2
    /// Required by `DistanceEstimator`; unused, as the fit takes all antenna paths jointly.
    public var combining: PathCombining

    public init(maxPaths: Int = 3, maxExcess: Double = 40, significance: Double = 0.2, qualityScale: Double = 0.1,
                minimumChannels: Int = 15, combining: PathCombining = .default) {
        self.maxPaths = min(3, max(1, maxPaths))
        self.maxExcess = maxExcess
        self.significance = significance
        self.qualityScale = qualityScale
        self.minimumChannels = minimumChannels
        self.combining = combining
    }

    public func estimatePath(_ tones: [ToneSet.Tone], diagnostics: Bool) -> DistanceEstimate? {
        estimate(ToneSet(paths: [tones]), diagnostics: diagnostics)
    }

    public func estimate(_ tones: ToneSet) -> DistanceEstimate? { estimate(tones, diagnostics: false) }

    public func estimate(_ tones: ToneSet, diagnostics: Bool) -> DistanceEstimate? {
        let tones = ToneScreening.default.judged(tones)
        guard let data = MultipathObservations(tones, minimumChannels: minimumChannels) else { return nil }
        var fitter = MultipathFitter(data: data, maxExcess: maxExcess, significance: significance)
        let n = Double(2 * data.toneCount)
        // Real parameters: the positions, and per antenna path β₀² and the ratios β_l/β₀.
        func parameters(_ order: Int) -> Double { Double(order + 2 * data.pathCount * order) }
        // The penalty in units of ln n: each amplitude's real part 1, each position 3 (see the type).
        func penalty(_ order: Int) -> Double { (parameters(order) + Double(2 * order)) * log(n) }
        func mdl(_ f: MultipathFit) -> Double { n * log(max(f.cost, 1e-300)) + penalty(f.order) }
        // The cost an order must reach to beat the best MDL so far.
        func worth(_ order: Int, _ best: Double) -> Double { exp((best - penalty(order)) / n) }
        let one = fitter.fitOnePath()
        // The order with the lowest MDL whose first path is placed: a reflection's model whose
        // first path it cannot place (σ̂ beyond half a metre, weaker than a later path, or
        // components cancelling) splits noise, not paths. Every fit made is kept as a rival.
        var chosen = one
        var bestMDL = mdl(one)
        var rivals: [MultipathFit] = [one]
        func consider(_ f: MultipathFit) -> Bool {
            rivals.append(f)
            guard f.placesFirstPath, mdl(f) < bestMDL else { return false }
            bestMDL = mdl(f)
            chosen = f
            return true
        }
        // A third path is looked for only where a second one was taken.
        if maxPaths >= 2, let two = fitter.fitTwoPaths(around: one, worthBelow: worth(2, bestMDL)), consider(two),
           maxPaths >= 3, let three = fitter.fitThreePaths(from: two, worthBelow: worth(3, bestMDL)) {
            _ = consider(three)
        }
        // A first path the fit missed: significant energy it leaves unexplained more than half a
        // resolution cell (c/4B ≈ 1 m) before its first path means the model spent its paths on
        // later, stronger ones (dense multipath); the first path is then placed at that energy.
        if let early = fitter.missedFirstPath(by: chosen, margin: Self.missedPathMargin) {
            chosen = fitter.fitFrom(earliest: early, after: chosen)
        }
        // Tones the fit cannot use (not finite, or beyond Double's range) give no distance.
        guard chosen.distance.isFinite, chosen.cost.isFinite else { return nil }
        // The uncertainty: the chosen fit's own σ̂, and how far the rivals the data support
        // nearly as well or better (weight e^{−ΔMDL/2}, at most 1) put the first path.
        var variance = chosen.standardDeviation * chosen.standardDeviation
        let chosenMDL = mdl(chosen)
        for r in rivals where r.cost.isFinite && r.distance.isFinite {
            let weight = min(1, exp(-(mdl(r) - chosenMDL) / 2))
            let gap = Ranging.circularDifference(r.distance, chosen.distance)
            variance += weight * gap * gap
        }
        // A model the data outgrow (more paths than it has: χ² of its residual against the
        // model-free noise estimate beyond 3σ of its own spread) misplaces its first path by
        // about the resolution c/2B times the unexplained amplitude (tones have unit mean power).
        if let noise = data.noiseVariance(slope: one.distance), noise > 0 {
            let dof = Double(data.toneCount) - parameters(chosen.order) / 2
            let chi2 = chosen.cost / (noise * max(1, dof))
            let excess = chi2 - 1 - 3 * (2 / max(1, dof)).squareRoot()
            if excess > 0 { variance += Self.resolution * Self.resolution * excess * noise }
        }
        let sigma = variance.squareRoot()
        let fit = sigma.isFinite ? exp(-sigma / qualityScale) : 0
        let quality = fit * ChannelGrid.goodFraction(data.toneCount / data.pathCount)
        var estimate = DistanceEstimate(distance: Ranging.wrap(chosen.distance), quality: quality, method: .multipathFit,
                                        toneCount: data.toneCount, pathCount: data.pathCount)
        if diagnostics {
            var d = EstimationDiagnostics()
            let amplitudes = fitter.amplitudes(chosen)
            let m = chosen.componentCount
            d.components = (0..<m).map { a in
                var sum = 0.0
                for p in 0..<data.pathCount { sum += amplitudes[p * m + a].magnitude }
                return .init(distance: Ranging.wrap(chosen.position(a)), amplitude: sum / Double(data.pathCount))
            }.sorted { $0.distance < $1.distance }
            d.predictedStandardDeviation = sigma
            d.fittedPaths = chosen.order
            estimate.diagnostics = d
        }
        return estimate
    }
}
