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
/// Three paths start from the best two-path fit with a third path at the residual's
/// periodogram peaks (only where two paths were taken). Starts are refined by
/// Levenberg–Marquardt on the round-trip model itself, z_pk = g_p·(Σ_l r_pl·e^{−jωd_l k/2})²
/// (r_p0 = 1), with JᵀJ accumulated over each tone's non-zero derivatives only (the positions
/// and its antenna path's amplitudes); a few iterations from each start first, and no more
/// for starts still above the cost their order needs to be chosen (free space stops there).
/// A fit whose components are far stronger than the tones (coincident paths cancelling) is a
/// fit of noise and is dropped.
///
/// **Order.** By the Bayesian information criterion on the real observations (2 per tone):
/// BIC = n·ln J + k·ln n, k = L + 2·P·L (positions, and per antenna path β₀² and the L − 1
/// ratios), so free space stays one path while a reflection of a few per cent is taken. A
/// multipath fit whose first path is weaker than `significance` × a later one, or which cannot
/// place its first path (σ̂ over 0.5 m), is not taken over a simpler one.
///
/// **First path.** d₀ is by construction the earliest path; the result wraps onto the 149.9 m
/// ambiguity circle (`Ranging.wrap`).
///
/// **Quality.** The fit's own predicted standard deviation of d₀, σ̂ = (σ̂²·(JᵀJ)⁻¹₀₀)^½ with
/// σ̂² = cost/(residuals − parameters), gives quality = e^{−σ̂/`qualityScale`} × good-channel
/// fraction: a clean free-space fit at 20 dB has σ̂ ≈ 1.5 cm (quality ≈ 0.85); an unresolved
/// reflection, a model that does not fit or few tones raise σ̂ and lower the quality
/// (`MultipathFitEstimatorTests.qualityPredictsTheError` states the rule it meets).
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
        guard let data = MultipathObservations(tones, minimumChannels: minimumChannels) else { return nil }
        var fitter = MultipathFitter(data: data, maxExcess: maxExcess, significance: significance)
        let n = Double(2 * data.toneCount)
        // Real parameters: the positions, and per antenna path β₀² and the ratios β_l/β₀.
        func parameters(_ order: Int) -> Double { Double(order + 2 * data.pathCount * order) }
        func bic(_ f: MultipathFit) -> Double { n * log(max(f.cost, 1e-300)) + parameters(f.order) * log(n) }
        // The cost an order must reach to beat the best BIC so far.
        func worth(_ order: Int, _ best: Double) -> Double { exp((best - parameters(order) * log(n)) / n) }
        let one = fitter.fitOnePath()
        // The order with the lowest BIC whose first path is placed: a reflection's model whose
        // first path it cannot place (σ̂ beyond half a metre, or weaker than a later path) splits
        // noise, not paths.
        var chosen = one
        var bestBIC = bic(one)
        func consider(_ f: MultipathFit) -> Bool {
            let placed = f.firstPathIsSignificant && f.standardDeviation < 0.5
            guard placed, bic(f) < bestBIC else { return false }
            bestBIC = bic(f)
            chosen = f
            return true
        }
        // A third path is looked for only where a second one was taken.
        if maxPaths >= 2, let two = fitter.fitTwoPaths(around: one, worthBelow: worth(2, bestBIC)), consider(two),
           maxPaths >= 3, let three = fitter.fitThreePaths(from: two, worthBelow: worth(3, bestBIC)) {
            _ = consider(three)
        }
        // Tones the fit cannot use (not finite, or beyond Double's range) give no distance.
        guard chosen.distance.isFinite, chosen.cost.isFinite else { return nil }
        let sigma = chosen.standardDeviation
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
