/// Where everything of an `SVGHeatmap` goes, in pixels, worked out before anything is drawn:
/// the colour scale, the colour bar's ticks (their labels size the room on the right), the one
/// scale (pixels per metre) that fits the width and the plot height, the plot rectangle, the
/// axis ticks and the picture's size. The margins have names; each is the sum of the bands it
/// holds, from the outside in.
struct HeatmapLayout {
    /// The fixed bands around the plot, pixels.
    enum Margin {
        /// Above the plot: the title's band (or a thin edge without a title) ...
        static let titleBand = 34.0
        static let edgeWithoutTitle = 8.0
        /// ... and the band for the colour bar's "≥ cap" label, which sits above the plot.
        static let capLabelBand = 16.0
        /// Left of the plot: the rotated y-axis title's band (or a thin edge without one), the
        /// y tick labels, then the gap to the frame.
        static let yTitleBand = 28.0
        static let edgeWithoutYTitle = 10.0
        static let yTickLabelGap = 12.0
        /// Right of the plot: the gap to the colour bar, the bar, the gap to its tick labels, the
        /// labels, the gap to the rotated value-axis title, the title's band, the edge.
        static let barGap = 18.0
        static let barWidth = 14.0
        static let barLabelGap = 6.0
        static let barLabelTitleGap = 10.0
        static let valueTitleBand = 16.0
        static let rightEdge = 8.0
        /// From the colour bar's tick labels' left edge to the value-axis title's centre line.
        static let valueTitleOffset = 14.0
        /// Below the plot: the x tick labels and the x-axis title (or the labels alone), then
        /// the legend's row.
        static let xTitleBand = 44.0
        static let xLabelsOnly = 24.0
        static let legendBand = 22.0
    }

    /// Pixels per tick the axes aim for (the tick count follows from the room).
    static let pixelsPerYTick = 50.0
    static let pixelsPerXTick = 60.0

    let levels: Int
    /// The colour scale: bottom value, cap, and whether any value is at or beyond the cap.
    let lower: Double, cap: Double, saturated: Bool
    /// The data rectangle, widened to a unit when empty.
    let x0: Double, x1: Double, y0: Double, y1: Double
    let barTicks: NiceTicks
    let capLabel: String
    let barLabelWidth: Double
    /// Pixels per metre, the same across and up.
    let scale: Double
    let plotLeft: Double, top: Double, plotWidth: Double, plotHeight: Double
    var plotRight: Double { plotLeft + plotWidth }
    var plotBottom: Double { top + plotHeight }
    let xTicks: NiceTicks, yTicks: NiceTicks
    /// The named marker shapes, in shape order.
    let legend: [(shape: SVGHeatmap.Marker.Shape, name: String)]
    let hasLegend: Bool
    let width: Double, height: Double
    /// The colour bar's left edge.
    var barLeft: Double { plotRight + Margin.barGap }

    init(_ map: SVGHeatmap) {
        levels = min(max(map.levels, 2), 256)
        (lower, cap, saturated) = map.colorScale
        (x0, x1) = (map.xRange.lowerBound, map.xRange.upperBound > map.xRange.lowerBound ? map.xRange.upperBound : map.xRange.lowerBound + 1)
        (y0, y1) = (map.yRange.lowerBound, map.yRange.upperBound > map.yRange.lowerBound ? map.yRange.upperBound : map.yRange.lowerBound + 1)

        let barTicks = NiceTicks(lower: lower, upper: cap, targetCount: 6)
        self.barTicks = barTicks
        capLabel = "≥ " + SVGNumberFormat.format(cap, decimals: max(2, barTicks.decimals), trimZeros: false)
        let barLabelWidth = barTicks.values.map { SVGTextMetrics.width(barTicks.label($0), fontSize: ChartLayout.tickFont) }.max() ?? 0
        self.barLabelWidth = barLabelWidth
        let rightRoom = Margin.barGap + Margin.barWidth + Margin.barLabelGap + barLabelWidth + Margin.barLabelTitleGap
            + (map.valueAxis.title.isEmpty ? 0 : Margin.valueTitleBand) + Margin.rightEdge
        top = (map.title.isEmpty ? Margin.edgeWithoutTitle : Margin.titleBand) + Margin.capLabelBand

        // The y tick labels set the left margin, which changes the scale a little, which
        // changes the plot height and so the y ticks: two passes settle it.
        var scale = 1.0, plotLeft = 0.0
        var yTicks = NiceTicks(lower: y0, upper: y1)
        for pass in 0..<2 {
            let plotHeight = pass == 0 ? map.maxPlotHeight : (y1 - y0) * scale
            yTicks = NiceTicks(lower: y0, upper: y1, targetCount: max(2, min(10, Int(plotHeight / Self.pixelsPerYTick))))
            let ticks = yTicks
            let yLabelWidth = ticks.values.map { SVGTextMetrics.width(ticks.label($0), fontSize: ChartLayout.tickFont) }.max() ?? 0
            plotLeft = (map.yAxis.title.isEmpty ? Margin.edgeWithoutYTitle : Margin.yTitleBand) + yLabelWidth + Margin.yTickLabelGap
            scale = max(0.01, min((map.maxWidth - plotLeft - rightRoom) / (x1 - x0), map.maxPlotHeight / (y1 - y0)))
        }
        self.scale = scale
        self.plotLeft = plotLeft
        self.yTicks = yTicks
        plotWidth = (x1 - x0) * scale
        plotHeight = (y1 - y0) * scale
        xTicks = NiceTicks(lower: x0, upper: x1, targetCount: max(2, min(10, Int(plotWidth / Self.pixelsPerXTick))))
        legend = SVGHeatmap.Marker.Shape.allCases.compactMap { shape in map.markerNames[shape].map { (shape, $0) } }.filter { !$0.1.isEmpty }
        hasLegend = !legend.isEmpty || (!map.regionName.isEmpty && !map.regions.isEmpty)
        width = plotLeft + plotWidth + rightRoom
        height = top + plotHeight + (map.xAxis.title.isEmpty ? Margin.xLabelsOnly : Margin.xTitleBand) + (hasLegend ? Margin.legendBand : 0)
    }

    /// The pixel x of a map x.
    func px(_ x: Double) -> Double { plotLeft + (x - x0) * scale }
    /// The pixel y of a map y (SVG's y grows downwards).
    func py(_ y: Double) -> Double { plotBottom - (y - y0) * scale }
    /// The colour bar's pixel y of a value.
    func barY(_ v: Double) -> Double { plotBottom - (v - lower) / (cap - lower) * plotHeight }
}
