/// Phase-based ranging and round-trip timing of one procedure together (mode 3, or a mode-2
/// procedure with a mode-1 sub-mode): PBR's precision where it is right, RTT's absolute delay to
/// say when it is not.
///
/// The rule, in order:
/// 1. **Either alone.** With tones only or timing only, that estimate is returned as it is.
/// 2. **Ambiguity.** PBR cannot tell d from d + n·149.9 m; the n that brings it nearest the RTT
///    distance is taken (RTT has no ambiguity).
/// 3. **A missed first path.** Multipath makes both read long, never short (a later path
///    cannot arrive first), RTT by its correlator's bias, PBR when its fit takes a reflection for
///    the direct path. So PBR reading *longer* than RTT by more than `agreement`·σ_RTT (σ_RTT the
///    timing estimate's own standard error, at least `floor` metres) means PBR missed the first
///    path: the earliest of the phase fit's other components within that tolerance of RTT is
///    taken, else the RTT distance itself. PBR reading *shorter* than RTT is what multipath does
///    to RTT, and PBR stands.
/// The threshold sits at 4σ so that in free space, where PBR is right and 100 times more
/// precise, RTT overrules it once in 30,000 procedures.
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
        var quality = pbr.quality
        if distance - rtt.distance > tolerance {
            let earlier = (pbr.diagnostics?.components ?? [])
                .map { unwrapped($0.distance) }
                .filter { $0 < distance && abs($0 - rtt.distance) <= tolerance }
                .min()
            // The fit's own word is lost either way; its quality stands for an earlier component,
            // the timing's for the timing's distance.
            if let earlier { distance = earlier } else { (distance, quality) = (rtt.distance, timed.quality) }
        }
        var e = DistanceEstimate(distance: max(0, distance), quality: quality, method: .combined,
                                 toneCount: pbr.toneCount, pathCount: pbr.pathCount, diagnostics: diagnostics ? pbr.diagnostics : nil)
        e.standardError = distance == rtt.distance ? rtt.standardError : nil
        return e
    }

    private func strip(_ e: DistanceEstimate, _ diagnostics: Bool) -> DistanceEstimate {
        var e = e
        if !diagnostics { e.diagnostics = nil }
        return e
    }
}
