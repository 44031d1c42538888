import EmulatorMath

/// The tones of a still scene's recent procedures, averaged into one procedure's worth of
/// tones with K times the SNR.
///
/// **Why it is right.** The round-trip tone (inline PCT, or the product of both sides' PCTs)
/// is free of the devices' LO phases, so while neither device moves it is the same channel,
/// H², every procedure, plus fresh noise. The maximum-likelihood fit of K such procedures
/// with shared paths is the fit of their mean (the mean is a sufficient statistic for a
/// common mean in white Gaussian noise), and its bound is the one-procedure two-path bound
/// over √K (`TwoPathBound`, at the SNR plus 10·log₁₀K). Averaging the distances instead would
/// keep each procedure's bias, which in multipath is most of its error.
///
/// **Alignment.** Each procedure is scaled to unit mean power (as `MultipathObservations`
/// does) and each antenna path turned by the one phase that best aligns it with the pool's
/// mean (least squares), so a controller whose round-trip phase carries a constant per
/// procedure, or a reference power that changes, still pools.
///
/// **Motion.** A new procedure is tested against the pool before it joins: the residual
/// r_k = z_k − m_k of its aligned tones against the pool's mean has variance σ²(1 + 1/n_k)
/// in a still scene (σ² the tone noise, n_k the procedures the mean has on that slot), so
/// X = Σ 2|r_k|²/(σ²(1 + 1/n_k)) is χ² with 2·(tones) − (paths) degrees of freedom (one
/// phase per path fitted); X beyond the `falseAlarm` quantile means the scene changed. σ²
/// comes from the pool's own scatter once it has three procedures, before that from the
/// procedure's second differences (`MultipathObservations.noiseVariance`). One procedure
/// that does not fit is held aside: if the next fits the pool the held one was an outlier and
/// is dropped; if the next fits the held one instead, the device moved and the pool restarts
/// from the two (so a step is followed within two procedures); if it fits neither, the pool
/// restarts from it alone.
public struct StillScenePool: Sendable {
    /// The most procedures averaged.
    public let capacity: Int
    /// The probability that a procedure of an unchanged scene is taken for a move.
    public let falseAlarm: Double
    /// Channels a path needs to be kept (as the estimators' `minimumChannels`).
    public let minimumChannels: Int

    /// What `add` did with a procedure.
    public enum Verdict: Sendable, Equatable {
        /// It fitted the pool and joined it.
        case pooled
        /// It did not fit and waits for the next procedure to tell a move from an outlier.
        case held
        /// The scene changed: the pool restarted from the held procedure and this one, or from this one.
        case restarted
        /// It had too few tones to be used; the pool is as it was.
        case skipped
    }

    /// One procedure on the channel grid, scaled and aligned: `values[p * slots + k]`.
    struct Member: Sendable {
        var values: [Complex]
        var present: [Bool]
        var pathCount: Int
        /// Its own noise variance (second differences), when it could be estimated.
        var noise: Double?
    }

    private var members: [Member] = []
    private var held: Member?
    private static let slots = MultipathObservations.slots

    public init(capacity: Int = 20, falseAlarm: Double = 1e-3, minimumChannels: Int = 15) {
        self.capacity = max(1, capacity)
        self.falseAlarm = min(max(falseAlarm, 1e-12), 0.5)
        self.minimumChannels = minimumChannels
    }

    /// Procedures in the pool.
    public var count: Int { members.count }

    /// Forgets every procedure (a new session, or a reconnection).
    public mutating func reset() {
        members.removeAll(keepingCapacity: true)
        held = nil
    }

    /// Offers a procedure's tones; `distance`, the procedure's own estimate if it has one,
    /// takes the slope out of its second differences for the noise estimate.
    @discardableResult
    public mutating func add(_ tones: ToneSet, distance: Double?) -> Verdict {
        guard let data = MultipathObservations(tones, minimumChannels: minimumChannels) else { return .skipped }
        let new = Member(values: data.values, present: data.present, pathCount: data.pathCount,
                         noise: distance.flatMap { data.noiseVariance(slope: $0) })
        guard let first = members.first, first.pathCount == new.pathCount else {
            restart(with: [new])
            return .restarted
        }
        let mean = Self.mean(of: members)
        let aligned = Self.aligned(new, to: mean)
        if fits(aligned, mean: mean, noise: noiseVariance(with: aligned)) {
            held = nil
            members.append(aligned)
            if members.count > capacity { members.removeFirst(members.count - capacity) }
            return .pooled
        }
        guard let h = held else {
            held = new
            return .held
        }
        // The second procedure in a row that does not fit: the scene moved. It starts the new
        // pool with the held one if the two agree.
        let heldMean = Self.mean(of: [h])
        let pair = Self.aligned(new, to: heldMean)
        let pairNoise = [h.noise, new.noise].compactMap { $0 }
        if !pairNoise.isEmpty, fits(pair, mean: heldMean, noise: pairNoise.reduce(0, +) / Double(pairNoise.count)) {
            restart(with: [h, pair])
        } else {
            restart(with: [new])
        }
        return .restarted
    }

    /// The pool's mean tones when it holds at least two procedures (one procedure's tones are
    /// its own estimate's): per path, each channel any member has, at the mean of the members that have it.
    public func pooledTones() -> ToneSet? {
        guard members.count >= 2 else { return nil }
        let mean = Self.mean(of: members)
        var paths: [[ToneSet.Tone]] = []
        for p in 0..<mean.pathCount {
            var tones: [ToneSet.Tone] = []
            for k in 0..<Self.slots where mean.has(p * Self.slots + k) {
                tones.append(ToneSet.Tone(channel: UInt8(k), value: mean.values[p * Self.slots + k]))
            }
            paths.append(tones)
        }
        return ToneSet(paths: paths)
    }

    // MARK: Internals

    private mutating func restart(with start: [Member]) {
        members.removeAll(keepingCapacity: true)
        members += start
        held = nil
    }

    /// The members' mean on each slot, and how many members have the slot.
    struct Mean {
        var values: [Complex]
        var counts: [Double]
        var pathCount: Int
        func has(_ i: Int) -> Bool { counts[i] > 0 }
    }

    private static func mean(of members: [Member]) -> Mean {
        let n = members[0].values.count
        var sums = [Complex](repeating: .zero, count: n)
        var counts = [Double](repeating: 0, count: n)
        for m in members {
            for i in 0..<n where m.present[i] {
                sums[i] += m.values[i]
                counts[i] += 1
            }
        }
        for i in 0..<n where counts[i] > 1 { sums[i] = sums[i] * (1 / counts[i]) }
        return Mean(values: sums, counts: counts, pathCount: members[0].pathCount)
    }

    /// `member` with each path turned by the phase that best aligns it with `mean`.
    private static func aligned(_ member: Member, to mean: Mean) -> Member {
        var out = member
        for p in 0..<member.pathCount {
            let base = p * slots
            var dot = Complex.zero
            for k in 0..<slots where member.present[base + k] && mean.has(base + k) {
                dot += mean.values[base + k] * member.values[base + k].conjugate
            }
            let size = dot.magnitude
            guard size > 0 else { continue }
            let turn = dot * (1 / size)
            for k in 0..<slots where member.present[base + k] { out.values[base + k] = member.values[base + k] * turn }
        }
        return out
    }

    /// The tone noise variance for the test of `candidate`: the pool's scatter about its mean
    /// once it has three members, else the mean of the second-difference estimates there are.
    private func noiseVariance(with candidate: Member) -> Double? {
        if members.count >= 3 {
            let mean = Self.mean(of: members)
            var sum = 0.0, dof = 0.0
            for m in members {
                for i in 0..<m.values.count where m.present[i] { sum += (m.values[i] - mean.values[i]).magnitudeSquared }
            }
            for c in mean.counts where c > 1 { dof += c - 1 }
            if dof > 0 { return sum / dof }
        }
        let estimates = (members.map(\.noise) + [candidate.noise]).compactMap { $0 }
        return estimates.isEmpty ? nil : estimates.reduce(0, +) / Double(estimates.count)
    }

    /// Whether `candidate` (aligned to `mean`) is the same channel, by the χ² test of the type's
    /// comment. A pool whose noise cannot be estimated takes every procedure.
    private func fits(_ candidate: Member, mean: Mean, noise: Double?) -> Bool {
        guard let noise, noise > 0, noise.isFinite else { return true }
        var x = 0.0
        var tones = 0
        for i in 0..<candidate.values.count where candidate.present[i] && mean.has(i) {
            x += 2 * (candidate.values[i] - mean.values[i]).magnitudeSquared / (noise * (1 + 1 / mean.counts[i]))
            tones += 1
        }
        let dof = 2 * tones - candidate.pathCount
        guard dof >= 1 else { return true }
        return x <= ChiSquare.quantile(1 - falseAlarm, degreesOfFreedom: dof)
    }
}
