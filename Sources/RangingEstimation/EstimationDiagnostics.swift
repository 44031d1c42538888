/// Detail an estimator can attach to a `DistanceEstimate` for tools (plots, reports). Computing it
/// costs allocations, so estimators fill it only when asked (`estimate(_:diagnostics: true)`).
public struct EstimationDiagnostics: Sendable, Equatable {
    /// The fitted phase line of a phase-slope estimator: `phase(k) ≈ intercept + slope·(k − referenceChannel)`,
    /// phase in radians (unwrapped), k the CS channel index.
    public struct PhaseLine: Sendable, Equatable {
        public var referenceChannel: Double
        public var intercept: Double
        /// Radians per MHz; d = −slope·c/(4π·1 MHz).
        public var slopePerMHz: Double
    }

    /// One component of a super-resolution fit of the round-trip tones.
    public struct Component: Sendable, Equatable {
        /// c·τ/2 for the component's round-trip delay τ, in `[0, Ranging.ambiguityRange)`.
        public var distance: Double
        /// |ĉ|, the least-squares amplitude over the tones.
        public var amplitude: Double
    }

    public var phaseLine: PhaseLine?
    /// The IFFT magnitude profile; bin b is b·c/(2·NFFT·1 MHz) metres.
    public var ifftMagnitude: [Double]?
    /// The bin of the global maximum of `ifftMagnitude`.
    public var ifftMaximumBin: Int?
    /// The interpolated (fractional) first-path bin the distance was computed from.
    public var firstPathBin: Double?
    /// Super-resolution components, in the order of increasing distance.
    public var components: [Component]?
    /// The multipath fit's predicted standard deviation of its distance, metres.
    public var predictedStandardDeviation: Double?
    /// The number of one-way paths the multipath fit chose.
    public var fittedPaths: Int?
    /// For a combined estimate: the per-path estimates (index = antenna path; `nil` = unusable).
    public var paths: [DistanceEstimate?]?

    public init() {}
}
