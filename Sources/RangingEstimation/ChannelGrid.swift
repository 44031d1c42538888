import EmulatorMath
/// Preprocessing shared by the estimators: one path's good tones averaged per channel onto the
/// 79-slot CS channel grid (index = CS channel k), as Nordic `cs_de` does with its running mean
/// of repeated tones (reference §1.1). Uses stack buffers, so the hot path does not allocate.
enum ChannelGrid {
    /// Calls `body` with the path's distinct good channels in increasing order: `channels[i]` is
    /// the CS channel index (as Double, i.e. MHz above 2402 MHz) and `values[i]` the mean of that
    /// channel's good tones. Tones on indices ≥ 79 are ignored.
    static func withAveragedTones<R>(
        _ tones: [ToneSet.Tone],
        _ body: (_ channels: UnsafeMutableBufferPointer<Double>, _ values: UnsafeMutableBufferPointer<Complex>) -> R
    ) -> R {
        let slots = Ranging.channelCount
        return withUnsafeTemporaryAllocation(of: Complex.self, capacity: slots) { sums in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: slots) { counts in
                withUnsafeTemporaryAllocation(of: Double.self, capacity: slots) { chans in
                    for i in 0..<slots {
                        sums[i] = .zero
                        counts[i] = 0
                    }
                    for t in tones where t.isGood && Int(t.channel) < slots {
                        let k = Int(t.channel)
                        sums[k] += t.value
                        counts[k] += 1
                    }
                    var n = 0
                    for k in 0..<slots where counts[k] > 0 {
                        sums[n] = counts[k] == 1 ? sums[k] : sums[k] * (1.0 / Double(counts[k]))
                        chans[n] = Double(k)
                        n += 1
                    }
                    return body(UnsafeMutableBufferPointer(rebasing: chans[0..<n]),
                                UnsafeMutableBufferPointer(rebasing: sums[0..<n]))
                }
            }
        }
    }

    /// Single-path coherence at one-way distance d: |Σ z_k·e^{+j2π f_k τ}| / Σ|z_k| with τ = 2d/c,
    /// f_k relative to channel 0 (a constant offset only rotates the sum). 1 for a clean single path.
    static func coherence(channels: UnsafeMutableBufferPointer<Double>, values: UnsafeMutableBufferPointer<Complex>,
                          distance d: Double) -> Double {
        let w = 4 * Double.pi * Ranging.toneSpacing * d / Ranging.speedOfLight // rad per MHz
        var s = Complex.zero
        var norm = 0.0
        for i in 0..<values.count {
            s += values[i] * Complex(phase: w * channels[i])
            norm += values[i].magnitude
        }
        return norm > 0 ? min(1, s.magnitude / norm) : 0
    }

    /// Fraction of the 72 allowed channels present, capped at 1.
    @inline(__always) static func goodFraction(_ n: Int) -> Double { min(1, Double(n) / 72) }
}
