import Foundation
import Testing
@testable import SVGCharts
import TestSupport

/// The SVG plotting library: well-formed XML, 1-2-5 ticks, points where they belong, escaping,
/// determinism and degenerate data.
struct SVGChartTests {
    /// Parses `svg` and expects it to be well-formed, with an `svg` root in the SVG namespace and
    /// a viewBox.
    @discardableResult
    static func parse(_ svg: String, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> SVGProbe {
        SVGProbe.parse(svg, comment, sourceLocation: sourceLocation)
    }

    static func f(_ v: Double) -> String { SVGNumberFormat.format(v, decimals: 2) }

    // MARK: Ticks and numbers

    @Test func ticksAreOneTwoFiveSteps() {
        #expect(NiceTicks(lower: 0, upper: 37).values == [0, 10, 20, 30])
        #expect(NiceTicks(lower: 0, upper: 37).decimals == 0)
        #expect(NiceTicks(lower: 2404, upper: 2478).values == [2410, 2420, 2430, 2440, 2450, 2460, 2470])
        #expect(NiceTicks(lower: 2402, upper: 2480, targetCount: 4).values == [2420, 2440, 2460, 2480])
        let unit = NiceTicks(lower: 0, upper: 1)
        #expect(unit.values == [0, 0.2, 0.4, 0.6, 0.8, 1.0])  // exact, not 0.6000000000000001
        #expect(unit.values.map(unit.label) == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"])
        #expect(NiceTicks(lower: -3.3, upper: 0.4).values == [-3, -2, -1, 0])
        #expect(NiceTicks(lower: 37, upper: 0).values == [0, 10, 20, 30])  // reversed bounds
        #expect(NiceTicks(lower: 0.0012, upper: 0.0049).values == [0.002, 0.003, 0.004])
        #expect(NiceTicks(lower: 0.0012, upper: 0.0049).label(0.003) == "0.003")
        let e = NiceTicks.expanded(lower: 0, upper: 37)
        #expect(e.lower == 0 && e.upper == 40 && e.ticks.values == [0, 10, 20, 30, 40])
        let p = NiceTicks.expanded(lower: -51.3, upper: -2.2)
        #expect(p.lower == -60 && p.upper == 0 && p.ticks.values == [-60, -50, -40, -30, -20, -10, 0])
    }

    @Test func degenerateRangesArePadded() {
        #expect(NiceTicks.paddedRange(5, 5) == (4.5, 5.5))
        #expect(NiceTicks.paddedRange(0, 0) == (-1, 1))
        #expect(NiceTicks.paddedRange(.nan, 3) == (0, 1))
        #expect(NiceTicks.paddedRange(-.infinity, .infinity) == (0, 1))
        #expect(!NiceTicks(lower: 5, upper: 5).values.isEmpty)
        #expect(!NiceTicks(lower: -1e308, upper: 1e308).values.isEmpty)
        #expect(!NiceTicks(lower: 1, upper: 1 + 1e-15).values.isEmpty)
    }

    @Test func numbersAreFormattedWithoutLocaleOrNoise() {
        #expect(SVGNumberFormat.format(0.1 + 0.2) == "0.3")
        #expect(SVGNumberFormat.format(1234.5678) == "1234.568")
        #expect(SVGNumberFormat.format(-0.0001) == "0")
        #expect(SVGNumberFormat.format(-2.5, decimals: 0) == "-3")
        #expect(SVGNumberFormat.format(12, decimals: 2) == "12")
        #expect(SVGNumberFormat.format(1.5, decimals: 2, trimZeros: false) == "1.50")
        #expect(SVGNumberFormat.format(.nan) == "0")
        #expect(SVGNumberFormat.format(1e20) == "1e+20")
    }

    // MARK: Geometry

    /// With fixed ranges 0…10 × 0…100, (0, 0) is the plot's bottom-left corner, (10, 100) its
    /// top-right corner and (5, 50) its centre, and the circles are written there.
    @Test func pointsLandWhereExpected() throws {
        let chart = SVGChart(title: "t", xAxis: ChartAxis(label: "x", range: .fixed(lower: 0, upper: 10)),
                             yAxis: ChartAxis(label: "y", range: .fixed(lower: 0, upper: 100)),
                             series: [ChartSeries(name: "s", x: [0, 5, 10], y: [0, 50, 100], style: .markers)])
        let l = chart.layout()
        #expect(l.width == 720 && l.height == 360)
        #expect(l.plotLeft > 30 && l.plotRight <= 700 && l.plotTop > 30 && l.plotBottom <= 320)
        #expect(l.px(0) == l.plotLeft && l.px(10) == l.plotRight)
        #expect(l.py(0) == l.plotBottom && l.py(100) == l.plotTop)
        let svg = chart.svg
        let corners = [(l.plotLeft, l.plotBottom), ((l.plotLeft + l.plotRight) / 2, (l.plotTop + l.plotBottom) / 2), (l.plotRight, l.plotTop)]
        for (x, y) in corners {
            #expect(svg.contains("<circle cx=\"\(Self.f(x))\" cy=\"\(Self.f(y))\" r=\"3\"/>"), "no circle at \(x), \(y)")
        }
        #expect(svg.contains("<rect x=\"\(Self.f(l.plotLeft))\" y=\"\(Self.f(l.plotTop))\" width=\"\(Self.f(l.plotRight - l.plotLeft))\""))
        // The default layout in numbers, so an accidental change of margins shows up here.
        #expect(svg.contains("<circle cx=\"57.12\" cy=\"314\" r=\"3\"/>"))
        #expect(svg.contains("<circle cx=\"696\" cy=\"60\" r=\"3\"/>"))
        // Ticks and their labels.
        #expect(l.xTicks.values == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        #expect(l.yTicks.values == [0, 20, 40, 60, 80, 100])
        let probe = Self.parse(svg)
        #expect(probe.texts.contains("100") && probe.texts.contains("10"))
        #expect(probe.texts.contains("x") && probe.texts.contains("y") && probe.texts.contains("t"))
    }

    /// An automatic axis ends on whole ticks around the data, and marker lines are included.
    @Test func automaticRangesCoverDataAndMarkers() {
        let chart = SVGChart(title: "", xAxis: ChartAxis(label: "d", unit: "m"), yAxis: ChartAxis(label: "a", range: .automaticIncludingZero),
                             series: [ChartSeries(name: "", x: [2, 3, 4], y: [5, 7, 6])],
                             markerLines: [ChartMarkerLine(x: 12.5, label: "far")])
        let l = chart.layout()
        #expect(l.xLower <= 2 && l.xUpper >= 12.5)
        #expect(l.yLower == 0 && l.yUpper >= 7)
        #expect(l.xTicks.values.first == l.xLower && l.xTicks.values.last == l.xUpper)
        #expect(ChartAxis(label: "Distance", unit: "m").title == "Distance (m)")
        #expect(ChartAxis(label: "Procedure").title == "Procedure")
    }

    /// A NaN breaks a line into two pieces; markers skip it.
    @Test func nonFinitePointsMakeGaps() throws {
        let line = SVGChart(title: "", xAxis: ChartAxis(label: ""), yAxis: ChartAxis(label: ""),
                            series: [ChartSeries(name: "", x: [0, 1, 2, 3, 4], y: [1, 2, .nan, 2, .infinity])])
        let svg = line.svg
        let path = try #require(svg.split(separator: "\n").first { $0.contains("stroke-linejoin") })
        #expect(path.filter { $0 == "M" }.count == 2)
        #expect(path.filter { $0 == "L" }.count == 1)
        let markers = SVGChart(title: "", xAxis: ChartAxis(label: ""), yAxis: ChartAxis(label: ""),
                               series: [ChartSeries(name: "", x: [0, 1, 2], y: [1, .nan, 3], style: .markers)])
        #expect(markers.svg.components(separatedBy: "<circle").count - 1 == 2)
    }

    // MARK: Text

    @Test func textIsEscaped() {
        #expect(SVGEscaping.text("a & b < c > d") == "a &amp; b &lt; c &gt; d")
        #expect(SVGEscaping.attribute("\"x\" 'y'") == "&quot;x&quot; &apos;y&apos;")
        #expect(SVGEscaping.text("bell\u{7}tab\t") == "belltab\t")
        let title = "R&D <ranging> \"test\" — 3 m"
        let chart = SVGChart(title: title, xAxis: ChartAxis(label: "x <1>", unit: "m&m"), yAxis: ChartAxis(label: "y"),
                             series: [ChartSeries(name: "a<b", x: [1, 2], y: [1, 2])],
                             markerLines: [ChartMarkerLine(x: 1.5, label: "p&q", color: "#000\"bad")])
        let svg = chart.svg
        #expect(svg.contains("R&amp;D &lt;ranging&gt;"))
        #expect(!svg.contains("R&D") && !svg.contains("<ranging>"))
        let probe = Self.parse(svg)
        #expect(probe.texts.contains(title))
        #expect(probe.texts.contains("x <1> (m&m)"))
        #expect(probe.texts.contains("a<b") && probe.texts.contains("p&q"))
    }

    // MARK: Determinism and degenerate data

    /// The crowded and degenerate charts are the committed SVG, byte for byte (from run to run
    /// and machine to machine; `GoldenFile` says how to regenerate it).
    @Test func outputMatchesTheGoldenFile() {
        let svg = SVGPanels([Self.crowdedChart] + Self.degenerateCharts).svg
        #expect(svg.utf8.count > 5000)
        GoldenFile.expect(svg, equals: "crowded-and-degenerate-charts.svg")
    }

    @Test(arguments: SVGChartTests.degenerateCharts.indices)
    func degenerateChartsRenderValidSVG(_ index: Int) {
        let chart = Self.degenerateCharts[index]
        let svg = chart.svg
        Self.parse(svg, "chart \(index)")
        #expect(!svg.contains("nan") && !svg.contains("inf"), "chart \(index)")
    }

    static let degenerateCharts: [SVGChart] = {
        let x = ChartAxis(label: "x"), y = ChartAxis(label: "y")
        return [
            SVGChart(title: "nothing", xAxis: x, yAxis: y),
            SVGChart(title: "empty series", xAxis: x, yAxis: y, series: [ChartSeries(name: "e", points: [])]),
            SVGChart(title: "one point", xAxis: x, yAxis: y, series: [ChartSeries(name: "p", x: [3], y: [4], style: .lineAndMarkers)]),
            SVGChart(title: "constant", xAxis: x, yAxis: y, series: [ChartSeries(name: "c", x: [1, 2, 3], y: [7, 7, 7])]),
            SVGChart(title: "zeros", xAxis: x, yAxis: y, series: [ChartSeries(name: "z", x: [0, 0], y: [0, 0], style: .markers)]),
            SVGChart(title: "non-finite", xAxis: x, yAxis: y, series: [ChartSeries(name: "n", x: [.nan, 1, .infinity], y: [1, .nan, -.infinity])]),
            SVGChart(title: "huge", xAxis: x, yAxis: y, series: [ChartSeries(name: "h", x: [-1e300, 1e300], y: [1e-300, 2e-300])]),
            SVGChart(title: "bad fixed", xAxis: ChartAxis(label: "x", range: .fixed(lower: .nan, upper: 1)),
                     yAxis: ChartAxis(label: "y", range: .fixed(lower: 5, upper: 5)),
                     series: [ChartSeries(name: "", x: [0, 1, 2], y: [100, -100, 5])],
                     markerLines: [ChartMarkerLine(x: .nan, label: "nan"), ChartMarkerLine(x: 1e9, label: "outside")]),
            SVGChart(title: "tiny", xAxis: x, yAxis: y, series: [ChartSeries(name: "t", x: [0, 1], y: [0, 1])], width: 0, height: -5),
            SVGChart(title: "", xAxis: ChartAxis(label: ""), yAxis: ChartAxis(label: ""),
                     markerLines: [ChartMarkerLine(x: 1, label: "a"), ChartMarkerLine(x: 1, label: "b"), ChartMarkerLine(x: 1, label: "c")]),
        ]
    }()

    @Test func panelsStackCharts() throws {
        let charts = [SVGChartTests.crowdedChart, SVGChartTests.degenerateCharts[2], SVGChartTests.degenerateCharts[9]]
        let svg = SVGPanels(charts).svg
        let probe = Self.parse(svg)
        let heights = charts.map { $0.layout().height }
        let total = heights.reduce(0, +) + 2 * 8
        #expect(probe.rootAttributes["height"] == Self.f(total))
        #expect(probe.rootAttributes["viewBox"] == "0 0 720 \(Self.f(total))")
        #expect(svg.contains("translate(0,\(Self.f(heights[0] + 8)))"))
        for id in ["panel0-plot", "panel1-plot", "panel2-plot"] { #expect(svg.contains("id=\"\(id)\"")) }
        #expect(probe.texts.contains("one point"))
    }
}

extension SVGChartTests {
    /// A title too long for the chart is set smaller rather than clipped.
    @Test func longTitlesShrink() {
        let short = SVGChart(title: "Short", xAxis: ChartAxis(label: ""), yAxis: ChartAxis(label: "")).layout()
        #expect(short.titleFontSize == ChartLayout.titleFont)
        let long = SVGChart(title: String(repeating: "Distance against truth ", count: 4), xAxis: ChartAxis(label: ""), yAxis: ChartAxis(label: "")).layout()
        #expect(long.titleFontSize < ChartLayout.titleFont && long.titleFontSize >= 9)
    }

    /// A crowded chart: a long title, seven series in a wrapping legend, a marker near the edge.
    static let crowdedChart = SVGChart(
        title: String(repeating: "A very long title & more ", count: 4),
        xAxis: ChartAxis(label: "Time", unit: "s", range: .fixed(lower: 0, upper: 0.001)),
        yAxis: ChartAxis(label: "Level", unit: "dBm"),
        series: (0..<7).map { k in
            ChartSeries(name: "series number \(k)", x: (0...10).map { Double($0) * 1e-4 }, y: (0...10).map { Double($0 * k) - 40 },
                        style: k % 2 == 0 ? .lineAndMarkers : .line)
        },
        markerLines: [ChartMarkerLine(x: 0.00098, label: "near the right edge"), ChartMarkerLine(x: 0.0005, label: "middle")])

    /// Writes a few degenerate and crowded charts into a temporary directory and reads them back
    /// (set SVG_SAMPLES_DIR to keep a copy for a look).
    @Test func writesEdgeCaseSample() throws {
        let charts = [Self.degenerateCharts[0], Self.degenerateCharts[2], Self.degenerateCharts[9], Self.crowdedChart]
        let svg = SVGPanels(charts).svg
        try TemporaryDirectory.with("svg-edge-cases") { dir in
            try svg.write(toFile: dir.file("svg-edge-cases.svg"), atomically: true, encoding: .utf8)
            Self.parse(try String(contentsOfFile: dir.file("svg-edge-cases.svg"), encoding: .utf8))
        }
        if let keep = ProcessInfo.processInfo.environment["SVG_SAMPLES_DIR"] {
            try svg.write(toFile: keep + "/svg-edge-cases.svg", atomically: true, encoding: .utf8)
        }
    }
}
