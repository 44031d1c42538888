import EmulatorMath
/// The timing noise the fits actually show, against the σ a receiver was told: the median over
/// recent epochs of each fit's χ² over the median of χ² with its degrees of freedom. Under the
/// noise model it is 1; the median ignores the minority of epochs an NLOS anchor spoils. The
/// positioner scales σ by its square root, so the χ² tests weigh residuals against the noise
/// the deployment has, not the noise it was configured with.
public struct NoiseScaleEstimate: Sendable {
    /// Epochs remembered.
    public var window: Int
    /// Epochs needed before the estimate is used (before: 1).
    public var minimumEpochs: Int
    /// The scale of σ² is kept within these bounds.
    public var bounds: ClosedRange<Double>
    private var ratios: [Double] = []
    private var next = 0
    private static let medians = (1...64).map { ChiSquare.quantile(0.5, degreesOfFreedom: $0) }

    public init(window: Int = 40, minimumEpochs: Int = 10, bounds: ClosedRange<Double> = 0.25...9) {
        self.window = max(1, window)
        self.minimumEpochs = minimumEpochs
        self.bounds = bounds
    }

    /// Adds a fit's cost (χ² under the σ it was solved with) and its degrees of freedom, scaled
    /// back by the σ² scale it was solved at.
    public mutating func add(cost: Double, degreesOfFreedom k: Int, solvedAtScale scale: Double) {
        guard k >= 1, cost.isFinite, scale > 0 else { return }
        let median = k <= Self.medians.count ? Self.medians[k - 1] : ChiSquare.quantile(0.5, degreesOfFreedom: k)
        let ratio = cost * scale / median
        if ratios.count < window { ratios.append(ratio) } else { ratios[next] = ratio }
        next = (next + 1) % window
    }

    /// The factor on σ²: the median ratio, within `bounds`; 1 until `minimumEpochs` epochs.
    public var scale: Double {
        guard ratios.count >= minimumEpochs, let m = Quantile.of(ratios, 0.5) else { return 1 }
        return min(max(m, bounds.lowerBound), bounds.upperBound)
    }
}
