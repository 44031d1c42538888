import EmulatorMath
/// Distance from the delay profile of the round-trip tones, after Nordic `cs_de` (reference §1.1).
///
/// 1. Good tones are averaged per channel and placed on a 1 MHz grid at index = CS channel k
///    (channels 23–25 and any unsounded channel stay zero), zero-padded to `fftSize`.
/// 2. An inverse FFT gives the delay profile; bin b is the round-trip delay b/(NFFT·1 MHz), i.e.
///    the one-way distance **b·c/(2·NFFT·1 MHz)** (29.3 cm per bin at NFFT 512). The profile is
///    circular with period 149.9 m, so the result lies in [0, 149.9).
/// 3. First-path search: within `searchWindow` metres before the global maximum (circularly),
///    the earliest local peak above `peakThreshold`·max (Nordic: `2.5·peak > max`, i.e. 0.4).
///    Scanning before the maximum rather than from bin 0 is what makes a direct path near 0 m,
///    whose main lobe straddles the wrap, come out right.
/// 4. Optional left-null compensation (Nordic's heuristic): if the chosen peak is further than a
///    normal main-lobe width `(NFFT + 75 − 1)/75` bins from its left null, the peak is taken to
///    be a merged early+late path and is moved to `left null + width`.
/// 5. Three-point parabolic interpolation on the magnitude:
///    t̂ = (late − early)/(4·prompt − 2·(early + late)) bins.
///
/// Quality = single-path coherence at the estimate × good-channel fraction (see `DistanceEstimate`).
public struct IFFTEstimator: DistanceEstimator {
    public let fftSize: Int
    public var peakThreshold: Double
    /// How far before the global maximum the earliest peak may lie, metres.
    public var searchWindow: Double
    public var leftNullCompensation: Bool
    public var minimumChannels: Int
    public var combining: PathCombining
    private let fft: FFT

    /// `fftSize` must be a power of two ≥ 128 (the grid has 79 channel slots).
    public init(fftSize: Int = 512, peakThreshold: Double = 0.4, searchWindow: Double = 30,
                leftNullCompensation: Bool = false, minimumChannels: Int = 15,
                combining: PathCombining = .default) {
        precondition(fftSize >= 128, "the IFFT needs at least 128 points for 79 channel slots")
        self.fftSize = fftSize
        self.peakThreshold = peakThreshold
        self.searchWindow = searchWindow
        self.leftNullCompensation = leftNullCompensation
        self.minimumChannels = minimumChannels
        self.combining = combining
        fft = FFT(size: fftSize)
    }

    /// One bin in metres: c/(2·NFFT·1 MHz).
    public var binSize: Double { Ranging.speedOfLight / (2 * Double(fftSize) * Ranging.toneSpacing) }

    public func estimatePath(_ tones: [ToneSet.Tone], diagnostics: Bool) -> DistanceEstimate? {
        ChannelGrid.withAveragedTones(tones) { f, z in
            let count = z.count
            guard count >= max(2, minimumChannels) else { return nil }
            let nfft = fftSize
            var re = [Double](repeating: 0, count: nfft)
            var im = [Double](repeating: 0, count: nfft)
            for i in 0..<count {
                re[Int(f[i])] = z[i].re
                im[Int(f[i])] = z[i].im
            }
            fft.transform(re: &re, im: &im, inverse: true)
            var maxBin = 0
            var maxValue = -1.0
            for i in 0..<nfft {
                let m = (re[i] * re[i] + im[i] * im[i]).squareRoot()
                re[i] = m
                if m > maxValue { maxValue = m; maxBin = i }
            }
            let mag = re
            guard maxValue > 0 else { return nil }
            @inline(__always) func at(_ i: Int) -> Double { mag[((i % nfft) + nfft) % nfft] }

            // Earliest local peak above the threshold, scanning up to the maximum.
            let window = min(nfft / 2, Int((searchWindow / binSize).rounded(.up)))
            let threshold = peakThreshold * maxValue
            var peak = maxBin
            for i in (maxBin - window)...maxBin {
                let v = at(i)
                if v > threshold && v > at(i - 1) && v >= at(i + 1) { peak = i; break }
            }

            var bin: Double
            let normalWidth = (nfft + 75 - 1) / 75
            var compensated = false
            if leftNullCompensation {
                var j = peak, steps = 0
                while at(j - 1) < at(j) && steps < nfft / 2 { j -= 1; steps += 1 }
                if peak - j > normalWidth {
                    peak = j + normalWidth
                    compensated = true
                }
            }
            bin = Double(peak)
            if !compensated {
                let e = at(peak - 1), p = at(peak), l = at(peak + 1)
                let den = 4 * p - 2 * (e + l)
                if den > 0 { bin += max(-0.5, min(0.5, (l - e) / den)) }
            }
            let d = Ranging.wrap(bin * binSize)
            let q = ChannelGrid.coherence(channels: f, values: z, distance: d) * ChannelGrid.goodFraction(count)
            var est = DistanceEstimate(distance: d, quality: q, method: .ifft, toneCount: count)
            if diagnostics {
                var diag = EstimationDiagnostics()
                diag.ifftMagnitude = mag
                diag.ifftMaximumBin = maxBin
                diag.firstPathBin = (bin.truncatingRemainder(dividingBy: Double(nfft)) + Double(nfft))
                    .truncatingRemainder(dividingBy: Double(nfft))
                est.diagnostics = diag
            }
            return est
        }
    }
}
