import EmulatorMath

/// One procedure's tones laid out for the multipath fit: per antenna path, the mean of each
/// channel's good tones on the 79-slot CS channel grid (zero where a channel has none), which
/// slots are present, and each path's energy, all scaled to unit mean power. Paths with fewer than `minimumChannels` distinct
/// good channels are left out (as every estimator here does, `DistanceEstimator`).
struct MultipathObservations: Sendable {
    static let slots = Ranging.channelCount
    /// Antenna paths kept.
    let pathCount: Int
    /// `values[p * slots + k]`: path p's mean tone on channel k.
    let values: [Complex]
    /// `present[p * slots + k]`: whether path p has a good tone on channel k.
    let present: [Bool]
    /// Σ_k |z_pk|² per path.
    let energy: [Double]
    /// Distinct good channels per path.
    let channelCounts: [Int]
    /// The lowest and highest slot any path has.
    let firstSlot: Int, lastSlot: Int
    /// Whether every path has the same channels (then one Gram matrix serves them all).
    let sharedChannels: Bool
    /// Whether some kept path measured a channel whose every tone was judged bad: where a
    /// reflection cancels the direct path the tones there are the weakest, so a notch can hide
    /// as a gap the one-way tones' sign continuity cannot see across.
    let hasRejectedChannels: Bool

    var toneCount: Int { channelCounts.reduce(0, +) }

    init?(_ tones: ToneSet, minimumChannels: Int) {
        let slots = Self.slots
        var values: [Complex] = []
        var present: [Bool] = []
        var energy: [Double] = []
        var counts: [Int] = []
        var sums = [Complex](repeating: .zero, count: slots)
        var hits = [Int](repeating: 0, count: slots)
        var rejected = [Bool](repeating: false, count: slots)
        var anyRejected = false
        var first = slots, last = -1
        for path in tones.paths {
            for k in 0..<slots {
                sums[k] = .zero
                hits[k] = 0
                rejected[k] = false
            }
            for t in path where Int(t.channel) < slots {
                guard t.isGood else {
                    rejected[Int(t.channel)] = true
                    continue
                }
                sums[Int(t.channel)] += t.value
                hits[Int(t.channel)] += 1
            }
            var n = 0
            for k in 0..<slots where hits[k] > 0 { n += 1 }
            guard n >= max(4, minimumChannels) else { continue }
            for k in 0..<slots where rejected[k] && hits[k] == 0 { anyRejected = true }
            var e = 0.0
            for k in 0..<slots {
                let v = hits[k] > 1 ? sums[k] * (1 / Double(hits[k])) : sums[k]
                values.append(v)
                present.append(hits[k] > 0)
                e += v.magnitudeSquared
                if hits[k] > 0 {
                    first = min(first, k)
                    last = max(last, k)
                }
            }
            energy.append(e)
            counts.append(n)
        }
        guard !counts.isEmpty, energy.contains(where: { $0 > 0 }) else { return nil }
        // Scaled to unit mean power over all paths, so that amplitudes and the Jacobian's
        // columns are of order 1 (the fit is invariant to a common scale).
        let scale = 1 / (energy.reduce(0, +) / Double(counts.reduce(0, +))).squareRoot()
        pathCount = counts.count
        self.values = values.map { $0 * scale }
        self.present = present
        self.energy = energy.map { $0 * scale * scale }
        channelCounts = counts
        firstSlot = first
        lastSlot = last
        var shared = true
        for p in 1..<max(1, counts.count) where shared {
            for k in 0..<slots where present[k] != present[p * slots + k] {
                shared = false
                break
            }
        }
        sharedChannels = shared
        hasRejectedChannels = anyRejected
    }
}

extension MultipathObservations {
    /// The noise variance of one tone, estimated without a model of the channel: once the
    /// first path's slope `distance` is taken out the channel turns slowly from one channel to
    /// the next (a path Δ metres later by ωΔ per channel), so the second difference
    /// z_{k−1} − 2z_k + z_{k+1} of three consecutive channels is mostly noise, whose E|·|² is 6σ²;
    /// the median of |·|²/(6 ln 2) (|·|² being exponential) keeps the few large differences of
    /// fast-turning late paths out. nil with fewer than 8 such triples.
    func noiseVariance(slope distance: Double) -> Double? {
        let slots = MultipathObservations.slots
        let rot = Complex(phase: MultipathFitter.radiansPerMetre * distance)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: values.count) { squares in
            var count = 0
            for p in 0..<pathCount {
                let base = p * slots
                // The slope taken out by a turning phasor: flat_k = z_k·e^{jwk}.
                var turn = Complex(phase: MultipathFitter.radiansPerMetre * distance * Double(firstSlot))
                var a = Complex.zero, b = Complex.zero
                var run = 0
                for k in firstSlot...lastSlot {
                    defer { turn = turn * rot }
                    guard present[base + k] else { run = 0; continue }
                    let c = values[base + k] * turn
                    if run >= 2 {
                        squares[count] = (a - b * 2 + c).magnitudeSquared
                        count += 1
                    }
                    (a, b) = (b, c)
                    run += 1
                }
            }
            guard count >= 8 else { return nil }
            var sorted = UnsafeMutableBufferPointer(rebasing: squares[0..<count])
            sorted.sort()
            let median = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
            return median / (6 * 0.693_147_180_559_945_3)
        }
    }
}
