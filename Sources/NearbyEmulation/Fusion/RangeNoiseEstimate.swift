/// A running, outlier-robust estimate of the noise of raw Channel Sounding distances, so the
/// direction fusion trusts each distance as much as it deserves: indoors, multipath rather
/// than thermal noise sets it, from centimetres in the open to decimetres in a cluttered room,
/// and a filter told the wrong figure either ignores good data or locks onto noise.
///
/// It uses differences of successive distances (procedures 50 ms apart, where a walking user
/// changes the distance by a few centimetres at most), so the motion itself hardly counts:
/// σ ≈ 1.4826 · median|Δr| / √2, over the last `window` differences.
public struct RangeNoiseEstimate: Sendable {
    public let window: Int
    private var differences: [Double] = []
    private var next = 0
    private var last: Double?

    public init(window: Int = 40) {
        self.window = max(3, window)
        differences.reserveCapacity(self.window)
    }

    /// Adds a raw distance (nil: a failed measurement breaks the chain of differences).
    public mutating func add(_ range: Double?) {
        defer { last = range }
        guard let range, let last else { return }
        let d = abs(range - last)
        if differences.count < window { differences.append(d) } else { differences[next] = d }
        next = (next + 1) % window
    }

    /// The noise standard deviation, metres (nil before `minimumSamples` differences).
    public func sigma(minimumSamples: Int = 10) -> Double? {
        guard differences.count >= minimumSamples else { return nil }
        let sorted = differences.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        return 1.4826 * median / 2.0.squareRoot()
    }
}
