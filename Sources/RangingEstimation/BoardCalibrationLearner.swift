import EmulatorMath

/// Learns a `BoardCalibration` from many procedures of one board pair: the relative delays of
/// its antenna paths at any distance, and, at a known distance, their absolute delays and the
/// RTT offset.
///
/// - **Relative delays** (any distance). In each procedure, for each path p against the
///   reference path r (path 0), the tones z_p·conj(z_r) of the channels good on both keep
///   only what differs between the two paths: −4π·f·(Δ_p − Δ_r)/c plus the difference of their
///   multipath, which for antennas centimetres apart is small against the room's own (the
///   room's multipath is common to both and cancels). Its phase slope (Kay's, as
///   `PhaseSlopeEstimator`) gives Δ_p − Δ_r; the median over procedures is robust to the
///   procedures a person walking by spoils. The delays are then referred to the paths'
///   median, so the median path is not moved.
/// - **Absolute delays and the RTT offset** (known distance D). With the relative delays taken
///   off, each procedure is estimated by `estimator` (all paths together, as a distance is
///   estimated in use); the median over procedures minus D is the common delay added to every
///   path. A calibration so learned takes that estimator's own bias in the calibration room
///   too, which is what a vendor's calibration at a known distance does. The RTT offset is the
///   median over procedures of the RTT distance (without offset) minus D.
///
/// What is learned is also reported as the per-procedure spread it removes (`Report`).
public struct BoardCalibrationLearner: Sendable {
    /// The estimator of the absolute distance (absolute mode).
    public var estimator: any DistanceEstimator
    /// Distinct channels good on both paths a procedure's path difference needs.
    public var minimumChannels: Int

    public init(estimator: any DistanceEstimator = MultipathFitEstimator(), minimumChannels: Int = 15) {
        self.estimator = estimator
        self.minimumChannels = minimumChannels
    }

    /// What a calibration rests on.
    public struct Report: Sendable, Equatable {
        public var calibration: BoardCalibration
        /// Procedures each path's delay rests on (path 0: those with any other path measured
        /// against it).
        public var proceduresPerPath: [Int]
        /// Procedures the absolute distance (and the RTT offset) rest on.
        public var distanceProcedures: Int
        public var roundTripProcedures: Int
        /// The learned procedures' median per-procedure spread of their paths' phase-slope
        /// distances (largest minus smallest), metres, before and after the calibration.
        public var spreadBefore: Double?
        public var spreadAfter: Double?
    }

    /// How far tones are moved out before an estimator reads them, metres: estimators report
    /// distances of at least 0 (`Ranging.wrap`), so a path difference or a close path's distance
    /// that is negative would read 0; moved out by this much, it reads right down to −20 m.
    public static let signShift = 20.0

    /// `tones` moved `shift` metres further out: each times e^{−j4π·f·shift/c}.
    static func movedOut(_ tones: [ToneSet.Tone], by shift: Double) -> [ToneSet.Tone] {
        let radiansPerHz = -4 * Double.pi * shift / Ranging.speedOfLight
        return tones.map { t in
            var t = t
            t.value = t.value * Complex(phase: radiansPerHz * t.frequency)
            return t
        }
    }

    /// `d` on the circle of the tones' own ambiguity (c/(2·g), g the greatest common divisor
    /// of their channel spacings in MHz: 149.9 m on the 1 MHz raster, 74.9 m on even channels),
    /// into [−R/2, R/2).
    static func folded(_ d: Double, channels: [UInt8]) -> Double {
        let sorted = Set(channels).sorted()
        var g = 0
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            var (x, y) = (g, Int(b) - Int(a))
            while y != 0 { (x, y) = (y, x % y) }
            g = x
        }
        let range = Ranging.ambiguityRange / Double(max(g, 1))
        var x = d.truncatingRemainder(dividingBy: range)
        if x >= range / 2 { x -= range } else if x < -range / 2 { x += range }
        return x
    }

    /// One path's distance by `estimator`, signed: not floored at 0 (`signShift`), and on
    /// the circle of its channels' ambiguity. Nil when the path is unusable.
    public static func signedDistance(_ path: [ToneSet.Tone], estimator: any DistanceEstimator) -> Double? {
        guard let e = estimator.estimatePath(movedOut(path, by: signShift), diagnostics: false) else { return nil }
        return folded(e.distance - signShift, channels: path.filter(\.isGood).map(\.channel))
    }

    /// Path p's delay minus path 0's in one procedure, metres; nil when the two paths share
    /// too few good channels. `tones` must have been judged (`ToneScreening`).
    public func pathDifference(_ tones: ToneSet, path p: Int) -> Double? {
        guard p < tones.paths.count, !tones.paths.isEmpty else { return nil }
        if p == 0 { return 0 }
        // The mean good tone of each channel of the reference path.
        var reference = [Complex](repeating: .zero, count: Ranging.channelCount)
        var counts = [Int](repeating: 0, count: Ranging.channelCount)
        for t in tones.paths[0] where t.isGood && Int(t.channel) < Ranging.channelCount {
            reference[Int(t.channel)] += t.value
            counts[Int(t.channel)] += 1
        }
        var products: [ToneSet.Tone] = []
        products.reserveCapacity(tones.paths[p].count)
        for t in tones.paths[p] where t.isGood && Int(t.channel) < Ranging.channelCount && counts[Int(t.channel)] > 0 {
            products.append(ToneSet.Tone(channel: t.channel, value: t.value * reference[Int(t.channel)].conjugate))
        }
        return Self.signedDistance(products, estimator: PhaseSlopeEstimator(variant: .kay, minimumChannels: minimumChannels))
    }

    /// The relative calibration of `procedures` (each one procedure's tones): the median of
    /// each path's difference to path 0, referred to the paths' median. Nil when no procedure has
    /// two usable paths.
    public func relative(_ procedures: [ToneSet]) -> Report? {
        let judged = procedures.map { ToneScreening.default.judged($0) }
        let paths = judged.map(\.paths.count).max() ?? 0
        guard paths >= 1 else { return nil }
        var differences = [[Double]](repeating: [], count: paths)
        for tones in judged {
            var any = false
            for p in 1..<max(tones.paths.count, 1) {
                if let d = pathDifference(tones, path: p) {
                    differences[p].append(d)
                    any = true
                }
            }
            if any { differences[0].append(0) }
        }
        if paths == 1 {
            return Report(calibration: BoardCalibration(pathDelays: [0], reference: .relative), proceduresPerPath: [procedures.count],
                          distanceProcedures: 0, roundTripProcedures: 0, spreadBefore: 0, spreadAfter: 0)
        }
        guard differences.dropFirst().contains(where: { !$0.isEmpty }) else { return nil }
        // A path never measured against path 0 is given no delay (0 after referring, below, is
        // not claimed: it stays at the median).
        let medians = differences.map { Quantile.of($0, 0.5) }
        let known = medians.compactMap { $0 }
        let centre = Quantile.of(known, 0.5) ?? 0
        let delays = medians.map { $0.map { $0 - centre } ?? 0 }
        let calibration = BoardCalibration(pathDelays: delays, reference: .relative)
        return Report(calibration: calibration, proceduresPerPath: differences.map(\.count), distanceProcedures: 0, roundTripProcedures: 0,
                      spreadBefore: Self.medianSpread(judged, .none), spreadAfter: Self.medianSpread(judged, calibration))
    }

    /// The absolute calibration of `procedures` measured at `distance` metres: the relative
    /// delays plus the common delay `estimator` finds, and the RTT offset from `roundTrips`
    /// (one per procedure, or empty). Nil when no procedure gives a distance.
    public func absolute(_ procedures: [ToneSet], roundTrips: [RoundTripTimes] = [], distance: Double) -> Report? {
        var report = relative(procedures) ?? Report(calibration: BoardCalibration(pathDelays: [], reference: .absolute),
                                                    proceduresPerPath: [], distanceProcedures: 0, roundTripProcedures: 0)
        var errors: [Double] = []
        for tones in procedures where !tones.paths.isEmpty {
            if let e = estimator.estimate(report.calibration.apply(to: tones)) { errors.append(e.distance - distance) }
        }
        let timing = RoundTripTimeEstimator()
        let rttErrors = roundTrips.compactMap { timing.result($0).map { $0.distance - distance } }
        guard let common = Quantile.of(errors, 0.5) ?? (rttErrors.isEmpty ? nil : 0) else { return nil }
        report.calibration.pathDelays = report.calibration.pathDelays.map { $0 + common }
        report.calibration.reference = .absolute
        report.calibration.roundTripOffset = Quantile.of(rttErrors, 0.5)
        report.distanceProcedures = errors.count
        report.roundTripProcedures = rttErrors.count
        return report
    }

    /// The median over procedures of the spread (largest minus smallest) of their paths'
    /// phase-slope distances after `calibration`; nil without a procedure of two usable paths.
    public static func medianSpread(_ procedures: [ToneSet], _ calibration: BoardCalibration) -> Double? {
        let spreads = procedures.compactMap { spread(calibration.apply(to: $0)) }
        return Quantile.of(spreads, 0.5)
    }

    /// The spread of one procedure's paths' signed phase-slope distances (Kay,
    /// `signedDistance`), metres; nil with fewer than two usable paths.
    public static func spread(_ tones: ToneSet) -> Double? {
        let judged = ToneScreening.default.judged(tones)
        let slope = PhaseSlopeEstimator(variant: .kay)
        let d = judged.paths.compactMap { signedDistance($0, estimator: slope) }
        guard d.count >= 2 else { return nil }
        return d.max()! - d.min()!
    }
}
