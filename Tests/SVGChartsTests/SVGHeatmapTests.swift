import Foundation
@testable import SVGCharts
import Testing

/// `SVGHeatmap`: one cell per value, row 0 at the bottom, saturation above the cap, equal
/// scales, and a layout whose margins hold what they are named for.
struct SVGHeatmapTests {
    /// The heat map draws exactly one cell per value; NaN saturates.
    @Test func tinyHeatmapHasOneCellPerValue() {
        let h = SVGHeatmap(title: "tiny", xRange: 0...3, yRange: 0...2, columns: 3, rows: 2, values: [0.1, 0.2, 0.3, 0.4, 0.5, .nan],
                           valueAxis: ChartAxis(label: "error", unit: "m"), markers: [SVGHeatmap.Marker(x: 1, y: 1, label: "A&B", shape: .triangle)])
        let svg = h.svg
        let probe = SVGChartTests.parse(svg)
        #expect(svg.components(separatedBy: "h1v1h-1z").count - 1 == 6)
        #expect(svg.contains("M0 1h1v1h-1z") && svg.contains("M2 0h1v1h-1z"))  // row 0 (y 0…1) at the bottom
        #expect(probe.texts.contains("A&B") && probe.texts.contains("error (m)") && probe.texts.contains("tiny"))
        #expect(probe.texts.contains("≥ 0.50"))
        #expect(h.svg == svg)
        // Equal scale: the plot's clip rectangle is 3 : 2.
        let clip = svg.components(separatedBy: "<clipPath id=\"heatmap-plot\"><rect ")[1].components(separatedBy: "/>")[0]
        let numbers = clip.split(separator: "\"").compactMap { Double($0) }
        #expect(abs(numbers[2] / numbers[3] - 1.5) < 0.01)
    }

    /// The layout's margins: the plot starts right of the y labels and the rotated title, the
    /// colour bar sits the named gap right of the plot, and the picture ends after its title band.
    @Test func layoutMarginsAreTheNamedBands() {
        let h = SVGHeatmap(title: "t", xRange: 0...10, yRange: 0...5, columns: 10, rows: 5, values: (0..<50).map(Double.init),
                           valueAxis: ChartAxis(label: "v", unit: "m"), markers: [], markerNames: [.circle: "c"])
        let l = HeatmapLayout(h)
        typealias M = HeatmapLayout.Margin
        #expect(l.top == M.titleBand + M.capLabelBand)
        #expect(l.barLeft == l.plotRight + M.barGap)
        #expect(abs(l.width - (l.barLeft + M.barWidth + M.barLabelGap + l.barLabelWidth + M.barLabelTitleGap + M.valueTitleBand + M.rightEdge)) < 1e-9)
        #expect(l.height == l.plotBottom + M.xTitleBand + M.legendBand)
        #expect(abs(l.plotWidth / l.plotHeight - 2) < 1e-9)
        #expect(l.plotLeft > M.yTitleBand + M.yTickLabelGap)
    }
}
