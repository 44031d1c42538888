/// An estimator on a calibrated board: every procedure's tones go through
/// `BoardCalibration.apply` and its round trips through the timing offset before `base`
/// estimates them. It is how a session, `loopback`, `range` and `sweep` take a calibration:
/// what they hold is a `DistanceEstimator`, and this is one.
///
/// `estimatePath` is `base`'s own, uncorrected: one path's tones do not say which antenna path
/// they are, so the correction happens where the whole procedure is seen.
public struct CalibratedEstimator: DistanceEstimator {
    public var base: any DistanceEstimator
    public var calibration: BoardCalibration

    public init(_ base: any DistanceEstimator, calibration: BoardCalibration) {
        self.base = calibration.timing(base)
        self.calibration = calibration
    }

    public var minimumChannels: Int { base.minimumChannels }
    public var combining: PathCombining { base.combining }

    public func estimatePath(_ tones: [ToneSet.Tone], diagnostics: Bool) -> DistanceEstimate? {
        base.estimatePath(tones, diagnostics: diagnostics)
    }

    public func estimate(_ tones: ToneSet, diagnostics: Bool) -> DistanceEstimate? {
        base.estimate(calibration.apply(to: tones), diagnostics: diagnostics)
    }

    public func estimate(_ tones: ToneSet, roundTrips: RoundTripTimes, diagnostics: Bool) -> DistanceEstimate? {
        base.estimate(calibration.apply(to: tones), roundTrips: roundTrips, diagnostics: diagnostics)
    }
}
