import EmulatorMath
import Foundation
import RangingEstimation
import SVGCharts

/// Turns a loopback run into the picture `--plot` writes: the first procedure's round-trip
/// phase against frequency with the least-squares line, its IFFT impulse response with the
/// first path and the truth marked, and the whole run's distances against truth.
enum LoopbackPlotting {
    static func svg(_ input: LoopbackCommand.PlotInput, rows: [LoopbackCommand.Row], estimatorName: String) -> String {
        let trace = rows.enumerated().map { (procedure: $0.offset, truth: $0.element.truth, raw: $0.element.raw, smoothed: $0.element.smoothed) }
        return svg(tones: input.tones, truth: input.truth, trace: trace)
    }

    /// The picture for any run: the first procedure's tones, the truth if known, the distance trace.
    static func svg(tones: ToneSet, truth: Double?, trace: [(procedure: Int, truth: Double?, raw: Double?, smoothed: Double?)]) -> String {
        plot(tones: tones, truth: truth, trace: trace).svg
    }

    /// The panels' data for any run (`estimate --plot` composes its own panels from them).
    static func plot(tones: ToneSet, truth: Double?, trace: [(procedure: Int, truth: Double?, raw: Double?, smoothed: Double?)]) -> LoopbackPlot {
        let path = tones.paths.first ?? []
        var frequencies: [Double] = []
        var phases: [Double] = []
        var fit: LoopbackPlot.PhaseFit?
        var estimated: Double?
        if let slope = PhaseSlopeEstimator(variant: .leastSquares).estimatePath(path, diagnostics: true),
            let line = slope.diagnostics?.phaseLine {
            fit = LoopbackPlot.PhaseFit(slopePerMHz: line.slopePerMHz, intercept: line.intercept, referenceMHz: 2402 + line.referenceChannel)
            estimated = slope.distance
            // Each channel's measured phase, unwrapped to lie within ±π of the fitted line.
            var sums: [UInt8: Complex] = [:]
            for t in path where t.isGood { sums[t.channel, default: .zero] += t.value }
            for (channel, z) in sums.sorted(by: { $0.key < $1.key }) {
                let k = Double(channel)
                let predicted = line.intercept + line.slopePerMHz * (k - line.referenceChannel)
                let residual = remainder(z.phase - predicted, 2 * Double.pi)
                frequencies.append(2402 + k)
                phases.append(predicted + residual)
            }
        }
        var impulse: [(distance: Double, magnitude: Double)] = []
        var firstPath: Double?
        let ifft = IFFTEstimator()
        if let e = ifft.estimatePath(path, diagnostics: true), let magnitude = e.diagnostics?.ifftMagnitude {
            // Normalised to the strongest bin: the scale of PCT products means nothing to a reader.
            let peak = max(magnitude.max() ?? 1, .leastNonzeroMagnitude)
            for (bin, m) in magnitude.enumerated() { impulse.append((Double(bin) * ifft.binSize, m / peak)) }
            firstPath = e.distance
        }
        return LoopbackPlot(frequenciesMHz: frequencies, phases: phases, fit: fit, estimatedDistance: estimated, impulse: impulse,
                            firstPath: firstPath, trueDistance: truth, trace: trace)
    }
}
