import RangingEstimation

/// The distance estimators `reflector-emu estimate --estimator` offers, by their command-line names.
public enum EstimatorChoice: String, Sendable, Equatable, CaseIterable {
    /// Kay's weighted phase-difference estimator.
    case kay
    /// Least-squares line through the unwrapped phase.
    case ls
    /// IFFT magnitude profile, earliest peak.
    case ifft
    /// ESPRIT super-resolution.
    case esprit
    /// Maximum-likelihood fit of one to three paths to all tones of all antenna paths (the default).
    case ml
    /// Round-trip timing of the mode-1/3 steps.
    case rtt
    /// The multipath fit with round-trip timing resolving its ambiguity and missed first paths.
    case combined

    /// The estimator `loopback`, `estimate`, `range` and `sweep` use unless told otherwise: the
    /// multipath fit, at the bound in free space like the phase slope and far nearer the truth
    /// in multipath (docs/estimators.md, its opening).
    public static let `default` = EstimatorChoice.ml

    /// The estimator with its default settings (15 distinct good channels per antenna path).
    public var estimator: any DistanceEstimator {
        switch self {
        case .kay: PhaseSlopeEstimator(variant: .kay)
        case .ls: PhaseSlopeEstimator(variant: .leastSquares)
        case .ifft: IFFTEstimator()
        case .esprit: ESPRITEstimator()
        case .ml: MultipathFitEstimator()
        case .rtt: RoundTripTimeEstimator()
        case .combined: CombinedEstimator()
        }
    }

    /// The estimators that read tones only (every one but `rtt` and `combined`).
    public static var phaseBased: [EstimatorChoice] { allCases.filter { !$0.usesTiming } }

    /// Whether the estimator reads the round-trip times (mode-1/3 steps).
    public var usesTiming: Bool { self == .rtt || self == .combined }

    /// The command-line name of the method an estimate came from (for output).
    public static func name(of method: DistanceEstimate.Method) -> String {
        switch method {
        case .kayPhaseDifference: "kay"
        case .leastSquaresPhaseSlope: "ls"
        case .uniformPhaseDifference: "uniform"
        case .ifft: "ifft"
        case .esprit: "esprit"
        case .multipathFit: "ml"
        case .roundTripTime: "rtt"
        case .combined: "combined"
        }
    }
}
