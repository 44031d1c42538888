/// Distance from round-trip timing (mode-1 and mode-3 steps): d = (c/2)·mean(RTT) − offset.
///
/// The mean is Nordic `cs_de_rtt`'s estimator (reference estimation.md §1.1), the efficient one
/// for Gaussian timing errors: it reaches `RoundTripTimeBound` in free space. Real controllers'
/// timestamps have heavy tails (Silicon Labs' RTT recording: one step in a procedure at −563
/// half-ns among steps at −100…+370), so before the mean the steps farther than
/// `outlierThreshold` robust standard deviations (1.4826·MAD) from the median are set aside;
/// for Gaussian errors that removes 1 step in 2,000 and costs nothing measurable.
///
/// `offset` is the board pair's own delay, in metres of one-way distance: RF paths, filters and
/// the controllers' processing add a fixed time to every round trip, which a calibration at a
/// known distance measures (`BoardCalibration.roundTripOffset`; 0 for this project's ideal
/// emulated radios, and whatever `AirBoardDelays` gives a generated board).
///
/// Quality is the share of the procedure's timed steps that were used (rejected and outlying
/// steps count against it) times 1/(1 + (σ̂/σ₀)²), where σ̂ is the estimate's own standard error
/// (sample spread/√N) and σ₀ = 0.5 m, the SIG's accuracy target: a procedure whose steps scatter
/// so that its mean is uncertain by σ₀ has half the quality of a precise one.
public struct RoundTripTimeEstimator: DistanceEstimator {
    /// Steps farther than this many robust σ from the median are outliers.
    public var outlierThreshold: Double
    /// Usable steps a procedure needs.
    public var minimumSteps: Int
    /// The pair's delay in one-way metres, subtracted from every estimate.
    public var offset: Double

    public init(outlierThreshold: Double = 3.5, minimumSteps: Int = 3, offset: Double = 0) {
        self.outlierThreshold = outlierThreshold
        self.minimumSteps = minimumSteps
        self.offset = offset
    }

    /// The standard error at which the quality's precision factor is one half.
    public static let qualityScale = 0.5

    public var minimumChannels: Int { 0 }
    public var combining: PathCombining { .best }
    /// Tones carry no timing.
    public func estimatePath(_ tones: [ToneSet.Tone], diagnostics: Bool) -> DistanceEstimate? { nil }
    public func estimate(_ tones: ToneSet, diagnostics: Bool) -> DistanceEstimate? { nil }

    public func estimate(_ tones: ToneSet, roundTrips: RoundTripTimes, diagnostics: Bool) -> DistanceEstimate? {
        estimate(roundTrips)
    }

    /// What the estimate rests on, beside the distance.
    public struct Result: Sendable, Equatable {
        /// One-way distance, metres, after the offset; may be negative for a board nearer than
        /// its calibration (`estimate` reports max(0, ·)).
        public var distance: Double
        /// Standard error of the distance, metres (spread of the used steps / √N).
        public var standardError: Double
        /// Steps used, and set aside as outliers.
        public var used: Int
        public var outliers: Int
    }

    /// The distance of `times`, or nil with fewer than `minimumSteps` usable steps.
    public func estimate(_ times: RoundTripTimes) -> DistanceEstimate? {
        guard let r = result(times) else { return nil }
        let timed = times.samples.count + times.rejected.total
        let share = Double(r.used) / Double(max(timed, 1))
        let precision = 1 / (1 + (r.standardError / Self.qualityScale) * (r.standardError / Self.qualityScale))
        var e = DistanceEstimate(distance: max(0, r.distance), quality: share * precision, method: .roundTripTime,
                                 toneCount: 0, pathCount: 1)
        e.standardError = r.standardError
        return e
    }

    /// The estimate's parts: the robust mean, its standard error and the steps it used.
    public func result(_ times: RoundTripTimes) -> Result? {
        let n = times.samples.count
        guard n >= minimumSteps else { return nil }
        // Median and MAD on the half-ns integers: exact, and the per-step path keeps to one
        // sorted copy.
        var sorted = times.samples.map(\.halfNanoseconds)
        sorted.sort()
        let median = Self.median(sorted)
        var deviations = sorted.map { abs(Double($0) - median) }
        deviations.sort()
        let robustSigma = 1.4826 * Self.median(deviations)
        // A spread of zero (a noise-free link, or quantized steps that agree) keeps exactly the
        // median's value; otherwise the threshold, and never tighter than one LSB.
        let limit = max(outlierThreshold * robustSigma, 1)
        var sum = 0.0, sumSquares = 0.0, used = 0
        for value in sorted where abs(Double(value) - median) <= limit {
            let x = Double(value)
            sum += x
            sumSquares += x * x
            used += 1
        }
        guard used >= minimumSteps else { return nil }
        let mean = sum / Double(used)
        let variance = max(0, (sumSquares - Double(used) * mean * mean) / Double(max(used - 1, 1)))
        let metresPerHalfNanosecond = 0.5e-9 * Ranging.speedOfLight / 2
        return Result(distance: mean * metresPerHalfNanosecond - offset,
                      standardError: (variance / Double(used)).squareRoot() * metresPerHalfNanosecond,
                      used: used, outliers: n - used)
    }

    static func median(_ sorted: [Int32]) -> Double {
        let n = sorted.count
        return n % 2 == 1 ? Double(sorted[n / 2]) : 0.5 * (Double(sorted[n / 2 - 1]) + Double(sorted[n / 2]))
    }

    static func median(_ sorted: [Double]) -> Double {
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
    }
}
