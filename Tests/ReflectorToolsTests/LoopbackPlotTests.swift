import Foundation
@testable import ReflectorTools
import SVGCharts
import TestSupport
import Testing

/// The picture `loopback --plot` writes: three panels stacked in one valid SVG file, from
/// made-up data and from degenerate data.
struct LoopbackPlotTests {
    static func parse(_ svg: String, sourceLocation: SourceLocation = #_sourceLocation) -> SVGProbe {
        SVGProbe.parse(svg, sourceLocation: sourceLocation)
    }

    static func f(_ v: Double) -> String { SVGNumberFormat.format(v, decimals: 2) }

    @Test func panelsStackCharts() throws {
        let plot = Self.samplePlot()
        let svg = plot.svg
        let probe = Self.parse(svg)
        #expect(probe.rootAttributes["height"] == Self.f(3 * plot.panelHeight + 2 * 8))
        #expect(probe.rootAttributes["viewBox"] == "0 0 720 \(Self.f(3 * plot.panelHeight + 2 * 8))")
        #expect(svg.contains("translate(0,\(Self.f(plot.panelHeight + 8)))"))
        for id in ["panel0-plot", "panel1-plot", "panel2-plot"] { #expect(svg.contains("id=\"\(id)\"")) }
        #expect(probe.texts.contains { $0 == "Phase against frequency: distance 3.05 m (true 3.00 m)" })
        #expect(probe.texts.contains("Channel impulse response (IFFT)"))
        #expect(probe.texts.contains { $0.hasPrefix("Distance against truth") })
        #expect(probe.texts.contains("first path 3.05 m") && probe.texts.contains("true 3.00 m"))
        // Panel 3's raw markers: one circle per procedure with an estimate.
        let raw = plot.trace.filter { $0.raw != nil }.count
        let trace = plot.traceChart.svg
        let vermilion = try #require(trace.components(separatedBy: "<g fill=\"\(ChartPalette.color(at: 1))\"").last)
        #expect(vermilion.components(separatedBy: "</g>")[0].components(separatedBy: "<circle").count - 1 == raw)
        #expect(raw < plot.trace.count)
        // Degenerate loopback data still gives a valid file.
        _ = Self.parse(LoopbackPlot(frequenciesMHz: [], phases: [], fit: nil, impulse: [], firstPath: nil, trueDistance: nil, trace: []).svg)
        _ = Self.parse(LoopbackPlot(frequenciesMHz: [2440], phases: [1], fit: .init(slopePerMHz: .nan, intercept: 0), impulse: [(1, .nan)],
                                firstPath: .infinity, trueDistance: 2, trace: [(0, 2, nil, nil)]).svg)
    }

    /// Writes the sample into a temporary directory and reads it back (set SVG_SAMPLES_DIR to
    /// keep a copy for a look; convert it with rsvg-convert).
    @Test func writesSampleLoopbackPlot() throws {
        let svg = Self.samplePlot().svg
        try TemporaryDirectory.with("loopback-sample") { dir in
            try svg.write(toFile: dir.file("loopback-sample.svg"), atomically: true, encoding: .utf8)
            _ = Self.parse(try String(contentsOfFile: dir.file("loopback-sample.svg"), encoding: .utf8))
        }
        if let keep = ProcessInfo.processInfo.environment["SVG_SAMPLES_DIR"] {
            try svg.write(toFile: keep + "/loopback-sample.svg", atomically: true, encoding: .utf8)
        }
    }

    /// The sample plot is the committed one, byte for byte (from run to run and machine to
    /// machine; `GoldenFile` says how to regenerate it).
    @Test func outputMatchesTheGoldenFile() {
        GoldenFile.expect(Self.samplePlot().svg, equals: "loopback-sample-plot.svg")
    }

    /// A loopback at 3 m with a reflection at 7.5 m: phases along the fitted line with a little
    /// deterministic noise, the IFFT profile of the two paths, and 60 procedures walking away
    /// from 1 m to 6 m with every seventh estimate missing.
    static func samplePlot() -> LoopbackPlot {
        let c = 299_792_458.0
        let channels = (2...76).filter { !(23...25).contains($0) }
        let f = channels.map { 2402.0 + Double($0) }
        let d = 3.0
        let slope = -4 * Double.pi * 1e6 * d / c
        let phases = f.enumerated().map { i, fr in 0.4 + slope * (fr - 2440) + 0.08 * sin(Double(i) * 1.7) }
        let paths: [(d: Double, a: Double)] = [(3.0, 1.0), (7.5, 0.55), (12.0, 0.2)]
        let bin = c / (2 * 256 * 1e6)
        let impulse: [(distance: Double, magnitude: Double)] = (0..<256).map { b in
            let x = Double(b) * bin
            var re = 0.0, im = 0.0
            for fr in f {
                for p in paths {
                    let phi = -4 * Double.pi * fr * 1e6 * (p.d - x) / c
                    re += p.a * cos(phi)
                    im += p.a * sin(phi)
                }
            }
            return (x, (re * re + im * im).squareRoot() / Double(f.count))
        }
        var smoothed: Double?
        let trace: [(procedure: Int, truth: Double, raw: Double?, smoothed: Double?)] = (0..<60).map { i in
            let truth = 1 + 5 * Double(i) / 59
            let raw: Double? = i % 7 == 3 ? nil : truth + 0.35 * sin(Double(i) * 2.3) + (i == 40 ? 2.5 : 0)
            if let raw { smoothed = smoothed.map { $0 + 0.3 * (raw - $0) } ?? raw }
            return (i, truth, raw, smoothed)
        }
        return LoopbackPlot(frequenciesMHz: f, phases: phases, fit: .init(slopePerMHz: slope * 3.05 / 3, intercept: 0.4, referenceMHz: 2440),
                            impulse: impulse, firstPath: 3.05, trueDistance: 3.0, trace: trace)
    }
}
