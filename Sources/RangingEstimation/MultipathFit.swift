import EmulatorMath

/// A fitted channel of one to three one-way paths: the first at `distance`, the others
/// `excess1` and `excess2` metres longer, and the variable-projection cost J left over.
struct MultipathFit: Sendable {
    /// One-way paths (1…3).
    var order: Int
    /// The parameters: d₀, then the excess lengths Δ₁ < Δ₂ of the later paths (order − 1 of them).
    var parameters: InlineArray<3, Double>
    var cost: Double
    /// Set by the round-trip refinement: per antenna path (3 each) g = β₀² and the ratios
    /// r_l = β_l/β₀, where a refinement that goes on starts.
    var gains: InlineArray<12, Complex>?
    /// Levenberg–Marquardt iterations the last refinement took.
    var iterations = 0
    /// Set by the round-trip refinement: d₀'s predicted standard deviation, metres.
    var standardDeviation = Double.infinity
    /// Components far stronger than the tones, cancelling: a fit of noise.
    var isDegenerate = false
    /// The first path is strong enough against the later ones to be taken as the direct path.
    var firstPathIsSignificant = true

    init(order: Int, parameters: InlineArray<3, Double>, cost: Double = .infinity) {
        self.order = order
        self.parameters = parameters
        self.cost = cost
    }

    var distance: Double { parameters[0] }

    /// Whether the fit places its first path, so the estimator may take it: significant
    /// against the later paths, not degenerate, and with σ̂ under half a metre. A reflection's
    /// model that fails this splits noise, not paths.
    var placesFirstPath: Bool { firstPathIsSignificant && !isDegenerate && standardDeviation < 0.5 }

    /// Round-trip components: one per pair i ≤ j of one-way paths.
    var componentCount: Int { order * (order + 1) / 2 }

    /// Component m's one-way-equivalent position (d_i + d_j)/2, in the order d₀, d₀+Δ₁/2, d₀+Δ₁
    /// (two paths), and d₀, d₀+Δ₁/2, d₀+Δ₂/2, d₀+Δ₁, d₀+(Δ₁+Δ₂)/2, d₀+Δ₂ (three).
    @inline(__always) func position(_ m: Int) -> Double {
        let d0 = parameters[0]
        switch (order, m) {
        case (_, 0): return d0
        case (2, 1): return d0 + parameters[1] / 2
        case (2, _): return d0 + parameters[1]
        case (_, 1): return d0 + parameters[1] / 2
        case (_, 2): return d0 + parameters[2] / 2
        case (_, 3): return d0 + parameters[1]
        case (_, 4): return d0 + (parameters[1] + parameters[2]) / 2
        default: return d0 + parameters[2]
        }
    }
}
