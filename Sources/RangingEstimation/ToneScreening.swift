import EmulatorMath
import Foundation

/// The estimators' own judgement of the tones a controller did not rate.
///
/// Tone_Quality_Indicator 3 means "tone quality unavailable" (Core 6.0 Vol 4 Part E
/// §7.7.65.44, mode-2/3 step data): the controller does not say, which is not the same as a
/// bad tone. Silicon Labs' controllers report every tone so (with the extension-slot bits set
/// on the extension slot), so an estimator that kept only tones rated high or medium would get
/// nothing from them. Each unrated tone (`ToneSet.Tone.isRated == false`) is kept when it
/// passes three checks, made against the tones of the same procedure:
///
/// 1. **Amplitude**: nonzero, finite, and within `amplitudeWindowDB` of the median amplitude
///    of the usable tones (rated good, or unrated) of the same antenna path in the procedure,
///    on either side (antenna paths differ in gain). A tone that was not received (a PCT of
///    0, the noise floor) or that saturated fails.
/// 2. **Repeated channels**: where one antenna path measured a channel more than once
///    (main-mode repetition, a channel map that repeats), a tone whose phase is more than
///    `repeatPhaseTolerance` from the mean phasor of that channel's tones fails.
/// 3. **Antenna paths** (N_AP ≥ 3, so that a majority exists): the phase step of a path from
///    one channel to the next one it has (at most `maximumGap` MHz away) is compared with the
///    same step on the other paths; the paths share the distance, so their steps agree within
///    the multipath spread. A tone whose steps to both neighbours (its only step, at an edge)
///    differ from the others' mean step by more than `pathStepTolerance` per MHz, while the
///    others agree with each other, fails. With two paths there is no majority and the check
///    is not made.
///
/// Rated tones are left as the controller rated them, and a set without unrated tones is
/// returned as it is (no work, no allocation). Every estimator applies this before its own
/// usability rule (`DistanceEstimator`), so a tone judged bad counts as a bad one there.
public struct ToneScreening: Sendable, Equatable {
    /// How far below or above the procedure's median amplitude an unrated tone may be, in dB of
    /// the tone's value (for a round-trip product that is twice the one-way fade).
    public var amplitudeWindowDB: Double
    /// Largest phase distance, in radians, from the mean of a repeated channel's tones.
    public var repeatPhaseTolerance: Double
    /// Largest difference, in radians per MHz, between a path's phase step and the other paths'.
    public var pathStepTolerance: Double
    /// Largest channel distance, in MHz, over which a phase step is compared (at least 1).
    public var maximumGap: Int

    public init(amplitudeWindowDB: Double = 20, repeatPhaseTolerance: Double = Double.pi / 4,
                pathStepTolerance: Double = Double.pi / 2, maximumGap: Int = 3) {
        self.amplitudeWindowDB = amplitudeWindowDB
        self.repeatPhaseTolerance = repeatPhaseTolerance
        self.pathStepTolerance = pathStepTolerance
        self.maximumGap = maximumGap
    }

    public static let `default` = ToneScreening()

    /// `tones` with every unrated tone judged: `isGood` set from the checks, `isRated` true.
    public func judged(_ tones: ToneSet) -> ToneSet {
        guard tones.paths.contains(where: { $0.contains { !$0.isRated } }) else { return tones }
        var paths = tones.paths
        var pass = paths.map { $0.map { $0.isRated ? $0.isGood : true } }

        // 1. Amplitude against the same antenna path's median in this procedure (paths differ in
        // gain: 15 dB between the paths of Silicon Labs' dual-antenna boards).
        let window = pow(10, amplitudeWindowDB / 20)
        for (p, path) in paths.enumerated() {
            var magnitudes: [Double] = []
            for (t, tone) in path.enumerated() where pass[p][t] {
                let m = tone.value.magnitude
                if m > 0 && m.isFinite { magnitudes.append(m) }
            }
            let median = Quantile.of(magnitudes, 0.5) ?? 0
            for (t, tone) in path.enumerated() where !tone.isRated {
                let m = tone.value.magnitude
                pass[p][t] = median > 0 && m.isFinite && m > 0 && m >= median / window && m <= median * window
            }
        }

        // 2. Repeated channels of one path.
        for (p, path) in paths.enumerated() {
            var byChannel: [UInt8: [Int]] = [:]
            for (t, tone) in path.enumerated() where pass[p][t] { byChannel[tone.channel, default: []].append(t) }
            for (_, indices) in byChannel where indices.count > 1 {
                var mean = Complex.zero
                for t in indices { mean += unit(path[t].value) }
                for t in indices where !path[t].isRated {
                    let off = (path[t].value * mean.conjugate).phase
                    if mean.magnitude == 0 || abs(off) > repeatPhaseTolerance { pass[p][t] = false }
                }
            }
        }

        // 3. Phase steps across antenna paths.
        if paths.count >= 3 { crossPathCheck(paths, &pass) }

        for p in paths.indices {
            for t in paths[p].indices where !paths[p][t].isRated {
                paths[p][t].isGood = pass[p][t]
                paths[p][t].isRated = true
            }
        }
        return ToneSet(paths: paths)
    }

    /// Check 3: per path the unit phasor of each channel (mean of its passing tones), then each
    /// path's step to its next channel against the other paths' steps over the same channels.
    private func crossPathCheck(_ paths: [[ToneSet.Tone]], _ pass: inout [[Bool]]) {
        let slots = Ranging.channelCount
        let n = paths.count
        let gapLimit = max(1, maximumGap)
        var grid = [Complex](repeating: .zero, count: n * slots)
        for (p, path) in paths.enumerated() {
            for (t, tone) in path.enumerated() where pass[p][t] && Int(tone.channel) < slots {
                grid[p * slots + Int(tone.channel)] += unit(tone.value)
            }
        }
        func present(_ p: Int, _ k: Int) -> Bool { grid[p * slots + k] != .zero }
        // bad[p][k]: the step of path p from channel k to its next channel disagrees.
        var stepBad = [[Bool?]](repeating: [Bool?](repeating: nil, count: slots), count: n)
        for p in 0..<n {
            for k in 0..<(slots - 1) where present(p, k) {
                guard let next = ((k + 1)...min(slots - 1, k + gapLimit)).first(where: { present(p, $0) }) else { continue }
                let gap = Double(next - k)
                let mine = (grid[p * slots + next] * grid[p * slots + k].conjugate).phase / gap
                var others = Complex.zero
                var count = 0
                for q in 0..<n where q != p && present(q, k) && present(q, next) {
                    others += Complex(phase: (grid[q * slots + next] * grid[q * slots + k].conjugate).phase / gap)
                    count += 1
                }
                // The others must agree among themselves for a majority to say anything.
                guard count >= 2, others.magnitude / Double(count) >= 0.7 else { continue }
                let off = remainder(mine - others.phase, 2 * Double.pi)
                stepBad[p][k] = abs(off) > pathStepTolerance
            }
        }
        for (p, path) in paths.enumerated() {
            for (t, tone) in path.enumerated() where !tone.isRated && pass[p][t] && Int(tone.channel) < slots {
                let k = Int(tone.channel)
                let after = stepBad[p][k]
                var before: Bool?
                if let prev = stride(from: k - 1, through: max(0, k - gapLimit), by: -1).first(where: { present(p, $0) }),
                   let b = stepBad[p][prev] {
                    before = b
                }
                switch (before, after) {
                case (true?, true?), (true?, nil), (nil, true?): pass[p][t] = false
                default: break
                }
            }
        }
    }

    @inline(__always) private func unit(_ z: Complex) -> Complex {
        let m = z.magnitude
        return m > 0 && m.isFinite ? z * (1 / m) : .zero
    }
}
