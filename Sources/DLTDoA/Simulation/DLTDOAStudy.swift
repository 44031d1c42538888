import EmulatorMath
/// The receiver judged over generated deployments (`DLTDOADeploymentGenerator`), not one room:
/// each deployment simulated end to end twice, clean and with one anchor shadowed, and the
/// fixes pooled by noise level: RMSE against the line-of-sight CRLB, fixes outside the
/// deployment's volume, epochs with enough anchors and no fix, and how often the shadowed
/// anchor (and how often a good one) was left out. Deterministic for its seeds.
public struct DLTDOAStudy: Sendable {
    /// What a set of fixes came to.
    public struct Tally: Sendable, Equatable {
        public var deployments = 0
        /// Fixes whose line-of-sight anchors bound the position (pooled in the RMSE), and those
        /// whose line-of-sight anchors alone cannot (a shadowed anchor the geometry needed).
        public var fixes = 0
        public var unboundedFixes = 0
        public var squaredError = 0.0
        public var squaredBound = 0.0
        /// The fixes whose geometry is good (GDOP ≤ `wellPosedGDOP`): the pooled ratio above is
        /// dominated by the worst geometries, where the volume clips the error below the bound.
        public var wellPosedFixes = 0
        public var wellPosedSquaredError = 0.0
        public var wellPosedSquaredBound = 0.0
        /// Fixes outside the floor-to-highest-anchor + 1 m, footprint + 2 m box.
        public var outsideVolume = 0
        /// Epochs the solver had enough differences for and gave no fix, and blocks between the
        /// first and the last fix with no fix at all (a round lost before the solver).
        public var unsolvedEpochs = 0
        public var skippedEpochs = 0
        /// Anchors heard through the obstacle, summed over epochs (the shadowed one, and another
        /// whose path to the phone passes the box), and those left out.
        public var shadowedHeard = 0
        public var shadowedRejected = 0
        /// Line-of-sight anchors heard, summed over epochs, and those left out.
        public var goodHeard = 0
        public var goodRejected = 0

        public init() {}

        public var rmse: Double { fixes > 0 ? (squaredError / Double(fixes)).squareRoot() : .nan }
        public var bound: Double { fixes > 0 ? (squaredBound / Double(fixes)).squareRoot() : .nan }
        public var ratio: Double { rmse / bound }
        public var wellPosedRatio: Double { wellPosedFixes > 0 ? (wellPosedSquaredError / wellPosedSquaredBound).squareRoot() : .nan }
        public var shadowedRejectionRate: Double { shadowedHeard > 0 ? Double(shadowedRejected) / Double(shadowedHeard) : .nan }
        public var goodRejectionRate: Double { goodHeard > 0 ? Double(goodRejected) / Double(goodHeard) : .nan }

        mutating func add(_ o: Tally) {
            deployments += o.deployments
            fixes += o.fixes
            unboundedFixes += o.unboundedFixes
            squaredError += o.squaredError
            squaredBound += o.squaredBound
            wellPosedFixes += o.wellPosedFixes
            wellPosedSquaredError += o.wellPosedSquaredError
            wellPosedSquaredBound += o.wellPosedSquaredBound
            outsideVolume += o.outsideVolume
            unsolvedEpochs += o.unsolvedEpochs
            skippedEpochs += o.skippedEpochs
            shadowedHeard += o.shadowedHeard
            shadowedRejected += o.shadowedRejected
            goodHeard += o.goodHeard
            goodRejected += o.goodRejected
        }
    }

    /// One noise band's clean and shadowed tallies.
    public struct Band: Sendable, Equatable {
        public var noise: ClosedRange<Double>
        public var clean = Tally()
        public var shadowed = Tally()
    }

    public var generator = DLTDOADeploymentGenerator()
    /// The bands fixes are pooled in, by the deployment's timestamp σ.
    public var bands: [ClosedRange<Double>] = [0.05...0.1, 0.1...0.2, 0.2...0.3]

    public init() {}

    /// Runs deployments `seeds` (each clean and shadowed) and pools them by band.
    public func run(seeds: some Sequence<UInt64>) -> [Band] {
        var out = bands.map { Band(noise: $0) }
        for seed in seeds {
            for shadowed in [false, true] {
                let g = generator.generate(seed: seed, shadowed: shadowed)
                let t = Self.tally(g)
                guard let b = bands.firstIndex(where: { $0.contains(g.deployment.timestampSigma) }) ?? bands.indices.last else { continue }
                if shadowed { out[b].shadowed.add(t) } else { out[b].clean.add(t) }
            }
        }
        return out
    }

    /// One generated deployment simulated and tallied.
    /// See `Tally.wellPosedFixes`.
    public static let wellPosedGDOP = 3.0

    public static func tally(_ g: DLTDOADeploymentGenerator.Generated) -> Tally {
        let d = g.deployment
        let o = DLTDOASimulation.Options(networkIdentifier: Int(d.anchors[0].networkIdentifier))
        let run = DLTDOASimulation.run(d, o)
        let volume = TDoAVolume(anchors: d.anchors.map(\.position), floor: 0)
        let sigma = (d.timestampSigma * d.timestampSigma + o.anchorTimestampSigma * o.anchorTimestampSigma).squareRoot()
        var t = Tally()
        t.deployments = 1
        t.unsolvedEpochs = run.unsolvedEpochs
        let times = run.records.map(\.fix.time)
        for (a, b) in zip(times, times.dropFirst()) { t.skippedEpochs += max(0, Int(((b - a) / d.blockDuration).rounded()) - 1) }
        for r in run.records {
            if r.bound.isFinite {
                t.fixes += 1
                t.squaredError += r.fixError * r.fixError
                t.squaredBound += r.bound * r.bound
                if r.bound <= wellPosedGDOP * sigma {
                    t.wellPosedFixes += 1
                    t.wellPosedSquaredError += r.fixError * r.fixError
                    t.wellPosedSquaredBound += r.bound * r.bound
                }
            } else {
                t.unboundedFixes += 1
            }
            if !volume.contains(r.fix.fix.position, tolerance: 0.002) { t.outsideVolume += 1 }
            let rejected = Set(r.fix.fix.rejectedAnchors.compactMap { TDoARound.address(of: $0, in: r.fix.rounds) })
            for id in r.fix.fix.delays.map(\.anchor) {
                guard let a = TDoARound.address(of: id, in: r.fix.rounds) else { continue }
                // Shadowed in this epoch: its path to the phone crosses the obstacle (the shadowed
                // anchor always; another whose path happens to pass the box, then).
                let position = d.anchors.first { Int($0.address) == a }?.position
                if let position, !d.zonesCrossed(position, r.truth).isEmpty {
                    t.shadowedHeard += 1
                    if rejected.contains(a) { t.shadowedRejected += 1 }
                } else {
                    t.goodHeard += 1
                    if rejected.contains(a) { t.goodRejected += 1 }
                }
            }
        }
        return t
    }
}
