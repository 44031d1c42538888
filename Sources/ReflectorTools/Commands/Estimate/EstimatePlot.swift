import CaptureEstimation
import EmulatorMath
import Foundation
import RangingEstimation
import SVGCharts

/// The picture `reflector-emu estimate --plot FILE.svg` writes, four panels top to bottom:
///
/// 1. Distance per procedure (gaps where a procedure gave none).
/// 2. The chosen procedure's round-trip phase against frequency with the least-squares line
///    (first antenna path), as `loopback --plot` draws it.
/// 3. Its amplitude per channel, every antenna path, in dB below the strongest tone; the tones
///    left out (rated bad, or judged bad by `ToneScreening` when the controller did not rate
///    them) drawn apart.
/// 4. Its channel impulse response (IFFT), with the first path marked.
enum EstimatePlot {
    static func svg(estimates: [ProcedureEstimate], chosen: ProcedureEstimate?) -> String {
        let trace = estimates.enumerated().map { (procedure: Int($0.element.procedureCounter), truth: Double?.none, raw: $0.element.distance, smoothed: Double?.none) }
        let tones = chosen?.tones.map { ToneScreening.default.judged($0) } ?? ToneSet(paths: [])
        let loopback = LoopbackPlotting.plot(tones: tones, truth: nil, trace: trace)
        var trace1 = loopback.traceChart
        trace1.series = trace1.series.filter { $0.name == "raw estimate" }.map { var s = $0; s.name = "distance"; return s }
        trace1.xAxis = ChartAxis(label: "Procedure counter")
        var phase = loopback.phaseChart
        var impulse = loopback.impulseChart
        if let chosen {
            phase.title = "Procedure \(chosen.procedureCounter): " + phase.title.prefix(1).lowercased() + phase.title.dropFirst()
            impulse.title = "Procedure \(chosen.procedureCounter): channel impulse response (IFFT)"
        }
        return SVGPanels([trace1, phase, amplitudeChart(tones, procedure: chosen?.procedureCounter, width: loopback.width, height: loopback.panelHeight), impulse]).svg
    }

    static func amplitudeChart(_ tones: ToneSet, procedure: UInt16?, width: Double, height: Double) -> SVGChart {
        let peak = tones.paths.flatMap { $0.map(\.value.magnitude) }.filter(\.isFinite).max() ?? 0
        func dB(_ z: Complex) -> Double {
            let m = z.magnitude
            return peak > 0 && m > 0 && m.isFinite ? 20 * log10(m / peak) : .nan
        }
        var series: [ChartSeries] = []
        for (p, path) in tones.paths.enumerated() {
            let good = path.filter(\.isGood).sorted { $0.channel < $1.channel }
            series.append(ChartSeries(name: "path \(p + 1)", x: good.map { 2402 + Double($0.channel) }, y: good.map { dB($0.value) },
                                      style: .lineAndMarkers, color: ChartPalette.color(at: p)))
        }
        let left = tones.paths.flatMap { $0.filter { !$0.isGood } }
        if !left.isEmpty {
            series.append(ChartSeries(name: "left out (\(left.count))", x: left.map { 2402 + Double($0.channel) }, y: left.map { dB($0.value) },
                                      style: .markers, color: ChartPalette.color(at: 7)))
        }
        let title = (procedure.map { "Procedure \($0): " } ?? "") + "amplitude per channel"
        return SVGChart(title: title, xAxis: ChartAxis(label: "Frequency", unit: "MHz"), yAxis: ChartAxis(label: "Amplitude", unit: "dB"),
                        series: series, width: width, height: height)
    }
}
