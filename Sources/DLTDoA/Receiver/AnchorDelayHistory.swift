/// One anchor's delay over recent epochs: the evidence that an obstacle shadows it, which one
/// epoch at 0.1–0.3 m of noise often cannot give. An exponentially weighted mean of the
/// per-epoch delays (`TDoAAnchorDelay`), each weighted by 1/σ², forgetting `forgetting` per
/// epoch (about 1/(1 − λ) epochs in the mean), with its standard error:
///
///     mean = Σλᵏwₖβₖ / Σλᵏwₖ,   se² = Σλ²ᵏwₖ / (Σλᵏwₖ)²,   wₖ = 1/σₖ².
///
/// Late when mean > `threshold`·se: NLOS only ever delays, so the test is one-sided. The weights
/// decay, so a shadow that lifts stops counting within a few epochs.
public struct AnchorDelayHistory: Sendable, Equatable {
    public private(set) var weight = 0.0
    public private(set) var weightedDelay = 0.0
    public private(set) var squaredWeight = 0.0
    public private(set) var epochs = 0

    public init() {}

    /// Adds one epoch's delay (metres) and its σ.
    public mutating func add(delay: Double, sigma: Double, forgetting: Double) {
        guard delay.isFinite, sigma.isFinite, sigma > 0 else { return }
        let w = 1 / (sigma * sigma)
        weight = forgetting * weight + w
        weightedDelay = forgetting * weightedDelay + w * delay
        squaredWeight = forgetting * forgetting * squaredWeight + w
        epochs += 1
    }

    /// The weighted mean delay, metres (0 before any epoch).
    public var mean: Double { weight > 0 ? weightedDelay / weight : 0 }

    /// The mean's standard error, metres (infinity before any epoch).
    public var standardError: Double { weight > 0 ? squaredWeight.squareRoot() / weight : .infinity }

    /// The mean over its standard error.
    public var score: Double { weight > 0 ? mean / standardError : 0 }

    /// Significantly late over at least `minimumEpochs` epochs.
    public func isLate(threshold: Double, minimumEpochs: Int) -> Bool { epochs >= minimumEpochs && score > threshold }
}
