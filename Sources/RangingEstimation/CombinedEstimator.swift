/// Phase-based ranging and round-trip timing of one procedure together (mode 3, or a mode-2
/// procedure with a mode-1 sub-mode): PBR's precision where it is right, RTT's absolute delay to
/// say when it is not.
///
/// The rule, in order:
/// 1. **Either alone.** With tones only or timing only, that estimate is returned as it is.
/// 2. **Ambiguity.** PBR cannot tell d from d + n·149.9 m; the n that brings it nearest the RTT
///    distance is taken (RTT has no ambiguity).
/// 3. **A missed first path.** PBR fails long: when its fit takes a reflection for the direct
///    path. When PBR reads *longer* than RTT by more than `agreement`·σ_RTT (σ_RTT the timing
///    estimate's own standard error, at least `floor` metres) and the phase fit itself holds an
///    earlier component within that tolerance of RTT, that component is taken: the tones saw a
///    path there, and the timing says it is the first. Otherwise PBR stands, even against RTT:
///    RTT's error under multipath is its correlator's, the peak of the merged paths, which a
///    near-equal reflection in opposite phase splits into a doublet whose peak lies tens of metres
///    early (55 m on LE 2M, 78 m on LE 1M for a 0.9 reflection 10 m longer, from `SyncArrival`'s
///    model), so a timing shorter than the tones is no proof the tones are wrong. Measured before
///    this rule (when RTT alone could overrule PBR): over 1,800 mode-3 procedures of light, two-ray
///    and TGn-B channels, every one of the 4 overrules made the distance worse (0.2 m → 1.5 m).
/// The threshold sits at 4σ so that in free space, where PBR is right and 100 times more
/// precise, RTT never reaches an earlier component of the fit by chance.
public struct CombinedEstimator: DistanceEstimator {
    public var phase: any DistanceEstimator
    public var timing: RoundTripTimeEstimator
    /// How many of RTT's standard errors PBR may read longer than RTT.
    public var agreement: Double
    /// The smallest tolerance, metres: RTT's standard error can be tiny on a noise-free link.
    public var floor: Double

    public init(phase: any DistanceEstimator = MultipathFitEstimator(), timing: RoundTripTimeEstimator = RoundTripTimeEstimator(),
                agreement: Double = 4, floor: Double = 0.3) {
        self.phase = phase
        self.timing = timing
        self.agreement = agreement
        self.floor = floor
    }

    public var minimumChannels: Int { phase.minimumChannels }
    public var combining: PathCombining { phase.combining }
    public func estimatePath(_ tones: [ToneSet.Tone], diagnostics: Bool) -> DistanceEstimate? {
        phase.estimatePath(tones, diagnostics: diagnostics)
    }
    public func estimate(_ tones: ToneSet, diagnostics: Bool) -> DistanceEstimate? { phase.estimate(tones, diagnostics: diagnostics) }

    public func estimate(_ tones: ToneSet, roundTrips: RoundTripTimes, diagnostics: Bool) -> DistanceEstimate? {
        let rtt = timing.result(roundTrips)
        // The components are needed to step back to an earlier path.
        let pbr = phase.estimate(tones, diagnostics: true)
        guard let rtt, let timed = timing.estimate(roundTrips) else { return pbr.map { strip($0, diagnostics) } }
        guard let pbr else { return timed }
        let tolerance = max(agreement * rtt.standardError, floor)
        let range = Ranging.ambiguityRange
        func unwrapped(_ d: Double) -> Double { d + ((rtt.distance - d) / range).rounded() * range }
        var distance = unwrapped(pbr.distance)
        let quality = pbr.quality
        if distance - rtt.distance > tolerance {
            let earlier = (pbr.diagnostics?.components ?? [])
                .map { unwrapped($0.distance) }
                .filter { $0 < distance && abs($0 - rtt.distance) <= tolerance }
                .min()
            if let earlier { distance = earlier }
        }
        let e = DistanceEstimate(distance: max(0, distance), quality: quality, method: .combined,
                                 toneCount: pbr.toneCount, pathCount: pbr.pathCount, diagnostics: diagnostics ? pbr.diagnostics : nil)
        return e
    }

    private func strip(_ e: DistanceEstimate, _ diagnostics: Bool) -> DistanceEstimate {
        var e = e
        if !diagnostics { e.diagnostics = nil }
        return e
    }
}
