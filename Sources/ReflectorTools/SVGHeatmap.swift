/// A heat map of values over an x/y rectangle in metres, rendered to SVG: coloured cells in the
/// sequential palette (`ChartPalette.sequential`), a colour bar with ticks and the unit, axes with
/// 1-2-5 ticks, labelled point markers and grey regions on top, and a title. Made for floor maps
/// (`reflector-emu tdoa plan --plot`), so a metre is as long across as up: distances and angles
/// on the map look like they do on the floor.
///
/// Values above the cap (and non-finite ones: a quantity without a bound) saturate to the top
/// colour and the colour bar says "≥ cap", so a few huge values outside the area of interest do
/// not wash the rest of the map into one colour. Colours come in `levels` bands, which reads like
/// contours; each band's cells are one `<path>` of unit squares in grid coordinates ("M3 4h1v1h-1z",
/// one per cell), which keeps a 140 × 120 map near 250 kB. The output is deterministic.
public struct SVGHeatmap: Equatable, Sendable {
    /// A point drawn over the cells with a label (an anchor).
    public struct Marker: Equatable, Sendable {
        public enum Shape: CaseIterable, Equatable, Sendable {
            /// A filled triangle: stands out (an initiator).
            case triangle
            /// A hollow circle.
            case circle
        }

        public var x: Double
        public var y: Double
        public var label: String
        public var shape: Shape

        public init(x: Double, y: Double, label: String, shape: Shape = .circle) {
            self.x = x
            self.y = y
            self.label = label
            self.shape = shape
        }
    }

    /// A polygon drawn hatched and semi-transparent grey over the cells (an NLOS zone), so the
    /// values under it stay readable.
    public struct Region: Equatable, Sendable {
        public var corners: [ChartPoint]
        public var label: String

        public init(corners: [ChartPoint], label: String = "") {
            self.corners = corners
            self.label = label
        }

        /// An axis-aligned rectangle.
        public static func rectangle(minX: Double, minY: Double, maxX: Double, maxY: Double, label: String = "") -> Region {
            Region(corners: [ChartPoint(x: minX, y: minY), ChartPoint(x: maxX, y: minY), ChartPoint(x: maxX, y: maxY), ChartPoint(x: minX, y: maxY)],
                   label: label)
        }
    }

    public var title: String
    /// The rectangle the cells cover, metres.
    public var xRange: ClosedRange<Double>
    public var yRange: ClosedRange<Double>
    public var columns: Int
    public var rows: Int
    /// Row after row, row 0 at the bottom (lowest y), `columns` values each; a missing value
    /// counts as non-finite.
    public var values: [Double]
    /// What the colours mean and its unit: the colour bar's title, "CRLB RMSE (m)".
    public var valueAxis: ChartAxis
    public var xAxis: ChartAxis
    public var yAxis: ChartAxis
    /// The value at the bottom colour (nil: the smallest finite value).
    public var lower: Double?
    /// Values from here up get the top colour (nil: 3 × the median of the finite values, or the
    /// largest finite value when that is lower).
    public var cap: Double?
    public var markers: [Marker]
    public var regions: [Region]
    /// Legend names of the marker shapes and of the regions; a shape without a name, or an
    /// empty `regionName`, is not in the legend.
    public var markerNames: [Marker.Shape: String]
    public var regionName: String
    /// Colour bands (2-256).
    public var levels: Int
    /// The widest the picture may be, and the tallest the plot area may be, pixels: the scale is
    /// the largest that fits both.
    public var maxWidth: Double
    public var maxPlotHeight: Double

    public init(title: String, xRange: ClosedRange<Double>, yRange: ClosedRange<Double>, columns: Int, rows: Int, values: [Double],
                valueAxis: ChartAxis, xAxis: ChartAxis = ChartAxis(label: "x", unit: "m"), yAxis: ChartAxis = ChartAxis(label: "y", unit: "m"),
                lower: Double? = nil, cap: Double? = nil, markers: [Marker] = [], regions: [Region] = [],
                markerNames: [Marker.Shape: String] = [:], regionName: String = "", levels: Int = 32,
                maxWidth: Double = 760, maxPlotHeight: Double = 560) {
        self.title = title
        self.xRange = xRange
        self.yRange = yRange
        self.columns = columns
        self.rows = rows
        self.values = values
        self.valueAxis = valueAxis
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.lower = lower
        self.cap = cap
        self.markers = markers
        self.regions = regions
        self.markerNames = markerNames
        self.regionName = regionName
        self.levels = levels
        self.maxWidth = maxWidth
        self.maxPlotHeight = maxPlotHeight
    }

    /// The colour scale: bottom value, cap, and whether any value is at or beyond the cap
    /// (then the colour bar's top reads "≥ cap").
    var colorScale: (lower: Double, cap: Double, saturated: Bool) {
        let finite = values.filter(\.isFinite).sorted()
        var lo = lower ?? finite.first ?? 0
        var hi = cap ?? {
            guard let top = finite.last else { return lo + 1 }
            let median = finite[finite.count / 2]
            return median > 0 ? min(top, 3 * median) : top
        }()
        if !lo.isFinite { lo = 0 }
        if !(hi.isFinite && hi > lo) { hi = lo + max(abs(lo) * 0.1, 1e-9) }
        let cells = rows * columns
        let saturated = (0..<max(0, cells)).contains { i in i >= values.count || !values[i].isFinite || values[i] > hi }
        return (lo, hi, saturated)
    }

    /// The colour band of a value: 0 ..< levels (beyond the cap and non-finite: the top band).
    func band(_ v: Double, lower: Double, cap: Double, levels: Int) -> Int {
        guard v.isFinite else { return levels - 1 }
        let t = (v - lower) / (cap - lower)
        return min(levels - 1, max(0, Int((t * Double(levels)).rounded(.down))))
    }

    /// A standalone SVG file.
    public var svg: String {
        let levels = min(max(self.levels, 2), 256)
        let (lo, hi, saturated) = colorScale
        func f(_ v: Double) -> String { SVGNumberFormat.format(v, decimals: 2) }
        func text(_ s: String, x: Double, y: Double, size: Double, anchor: String = "start", extra: String = "") -> String {
            let a = anchor == "start" ? "" : " text-anchor=\"\(anchor)\""
            return "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(size))\"\(a)\(extra)>\(SVGEscaping.text(s))</text>\n"
        }
        let ink = ChartPalette.ink
        let (x0, x1) = (xRange.lowerBound, xRange.upperBound > xRange.lowerBound ? xRange.upperBound : xRange.lowerBound + 1)
        let (y0, y1) = (yRange.lowerBound, yRange.upperBound > yRange.lowerBound ? yRange.upperBound : yRange.lowerBound + 1)

        // Colour-bar ticks (their labels set the room on the right), then the one scale that fits
        // the width and the height; the y tick labels set the left margin, which the scale changes
        // a little, so lay out twice.
        let barTicks = NiceTicks(lower: lo, upper: hi, targetCount: 6)
        let capLabel = "≥ " + SVGNumberFormat.format(hi, decimals: max(2, barTicks.decimals), trimZeros: false)
        let barLabelWidth = barTicks.values.map { SVGTextMetrics.width(barTicks.label($0), fontSize: ChartLayout.tickFont) }.max() ?? 0
        let rightRoom = 18 + 14 + 6 + barLabelWidth + 10 + (valueAxis.title.isEmpty ? 0 : 16) + 8
        let top = (title.isEmpty ? 8.0 : 34.0) + 16  // the colour bar's "≥" label sits above the plot
        var scale = 1.0, plotLeft = 0.0
        var yTicks = NiceTicks(lower: y0, upper: y1)
        for pass in 0..<2 {
            let plotHeight = pass == 0 ? maxPlotHeight : (y1 - y0) * scale
            yTicks = NiceTicks(lower: y0, upper: y1, targetCount: max(2, min(10, Int(plotHeight / 50))))
            let yLabelWidth = yTicks.values.map { SVGTextMetrics.width(yTicks.label($0), fontSize: ChartLayout.tickFont) }.max() ?? 0
            plotLeft = (yAxis.title.isEmpty ? 10 : 28) + yLabelWidth + 12
            scale = max(0.01, min((maxWidth - plotLeft - rightRoom) / (x1 - x0), maxPlotHeight / (y1 - y0)))
        }
        let plotWidth = (x1 - x0) * scale, plotHeight = (y1 - y0) * scale
        let (plotRight, plotBottom) = (plotLeft + plotWidth, top + plotHeight)
        let xTicks = NiceTicks(lower: x0, upper: x1, targetCount: max(2, min(10, Int(plotWidth / 60))))
        let legend = Marker.Shape.allCases.compactMap { shape in markerNames[shape].map { (shape, $0) } }.filter { !$0.1.isEmpty }
        let hasLegend = !legend.isEmpty || (!regionName.isEmpty && !regions.isEmpty)
        let width = plotRight + rightRoom
        let height = plotBottom + (xAxis.title.isEmpty ? 24 : 44) + (hasLegend ? 22 : 0)
        func px(_ x: Double) -> Double { plotLeft + (x - x0) * scale }
        func py(_ y: Double) -> Double { plotBottom - (y - y0) * scale }

        var out = "<defs><clipPath id=\"heatmap-plot\"><rect x=\"\(f(plotLeft))\" y=\"\(f(top))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\"/></clipPath>"
        out += "<pattern id=\"heatmap-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        out += "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#333333\" stroke-width=\"1.2\"/></pattern></defs>\n"

        // Cells: one path per colour band, in grid units (row 0 at the bottom).
        if rows > 0, columns > 0 {
            var paths = [String](repeating: "", count: levels)
            for r in 0..<rows {
                let gy = String(rows - 1 - r)
                for c in 0..<columns {
                    let i = r * columns + c
                    paths[band(i < values.count ? values[i] : .nan, lower: lo, cap: hi, levels: levels)] += "M\(c) \(gy)h1v1h-1z"
                }
            }
            let sx = SVGNumberFormat.format(plotWidth / Double(columns), decimals: 4), sy = SVGNumberFormat.format(plotHeight / Double(rows), decimals: 4)
            out += "<g transform=\"translate(\(f(plotLeft)),\(f(top))) scale(\(sx),\(sy))\" shape-rendering=\"crispEdges\">\n"
            for (k, d) in paths.enumerated() where !d.isEmpty {
                out += "<path fill=\"\(ChartPalette.sequentialColor(at: Double(k) / Double(levels - 1)))\" d=\"\(d)\"/>\n"
            }
            out += "</g>\n"
        }

        // Regions over the cells: grey veil, hatching, dashed outline, clipped to the map.
        out += "<g clip-path=\"url(#heatmap-plot)\">\n"
        for region in regions {
            let corners = region.corners.filter(\.isFinite)
            guard corners.count >= 3 else { continue }
            let d = corners.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(f(px($0.element.x))),\(f(py($0.element.y)))" }.joined() + "Z"
            out += "<path d=\"\(d)\" fill=\"#808080\" fill-opacity=\"0.45\"/>\n"
            out += "<path d=\"\(d)\" fill=\"url(#heatmap-hatch)\" stroke=\"#333333\" stroke-width=\"1.2\" stroke-dasharray=\"4 2\"/>\n"
        }
        out += "</g>\n"
        out += "<rect x=\"\(f(plotLeft))\" y=\"\(f(top))\" width=\"\(f(plotWidth))\" height=\"\(f(plotHeight))\" fill=\"none\" stroke=\"\(ChartPalette.frame)\" stroke-width=\"1\" shape-rendering=\"crispEdges\"/>\n"

        // Axes: tick marks outside the frame (grid lines would hide the cells), labels, titles.
        var tickPath = ""
        for v in xTicks.values { tickPath += "M\(f(px(v))),\(f(plotBottom))v5" }
        for v in yTicks.values { tickPath += "M\(f(plotLeft)),\(f(py(v)))h-5" }
        out += "<path d=\"\(tickPath)\" stroke=\"\(ChartPalette.frame)\" stroke-width=\"1\" fill=\"none\"/>\n<g fill=\"\(ink)\">\n"
        for v in xTicks.values { out += text(xTicks.label(v), x: px(v), y: plotBottom + 17, size: ChartLayout.tickFont, anchor: "middle") }
        for v in yTicks.values { out += text(yTicks.label(v), x: plotLeft - 8, y: py(v) + 4, size: ChartLayout.tickFont, anchor: "end") }
        if !title.isEmpty {
            let titleWidth = SVGTextMetrics.width(title, fontSize: ChartLayout.titleFont) * 1.18  // bold is wider
            let size = titleWidth > width - 16 ? max(9, ChartLayout.titleFont * (width - 16) / titleWidth) : ChartLayout.titleFont
            out += text(title, x: width / 2, y: 24, size: size, anchor: "middle", extra: " font-weight=\"bold\"")
        }
        if !xAxis.title.isEmpty { out += text(xAxis.title, x: (plotLeft + plotRight) / 2, y: plotBottom + 37, size: ChartLayout.axisFont, anchor: "middle") }
        if !yAxis.title.isEmpty {
            out += "<text transform=\"translate(18,\(f((top + plotBottom) / 2))) rotate(-90)\" x=\"0\" y=\"0\" font-size=\"\(f(ChartLayout.axisFont))\" text-anchor=\"middle\">\(SVGEscaping.text(yAxis.title))</text>\n"
        }
        out += "</g>\n"

        // Colour bar: the bands bottom to top, ticks at nice values, "≥ cap" on top when saturated.
        let barLeft = plotRight + 18, barWidth = 14.0
        func barY(_ v: Double) -> Double { plotBottom - (v - lo) / (hi - lo) * plotHeight }
        out += "<g shape-rendering=\"crispEdges\">\n"
        for k in 0..<levels {
            let y = plotBottom - Double(k + 1) * plotHeight / Double(levels)
            out += "<rect x=\"\(f(barLeft))\" y=\"\(f(y))\" width=\"\(f(barWidth))\" height=\"\(f(plotHeight / Double(levels) + 0.5))\" fill=\"\(ChartPalette.sequentialColor(at: Double(k) / Double(levels - 1)))\"/>\n"
        }
        out += "<rect x=\"\(f(barLeft))\" y=\"\(f(top))\" width=\"\(f(barWidth))\" height=\"\(f(plotHeight))\" fill=\"none\" stroke=\"\(ChartPalette.frame)\" stroke-width=\"1\"/>\n</g>\n<g fill=\"\(ink)\">\n"
        var barTickPath = ""
        for v in barTicks.values where !(saturated && barY(v) < top + 12) {
            barTickPath += "M\(f(barLeft + barWidth)),\(f(barY(v)))h4"
            out += text(barTicks.label(v), x: barLeft + barWidth + 6, y: barY(v) + 4, size: ChartLayout.tickFont)
        }
        if saturated { out += text(capLabel, x: barLeft + barWidth / 2, y: top - 5, size: ChartLayout.tickFont, anchor: "middle") }
        if !valueAxis.title.isEmpty {
            let x = barLeft + barWidth + 6 + barLabelWidth + 14
            out += "<text transform=\"translate(\(f(x)),\(f((top + plotBottom) / 2))) rotate(-90)\" x=\"0\" y=\"0\" font-size=\"\(f(ChartLayout.axisFont))\" text-anchor=\"middle\">\(SVGEscaping.text(valueAxis.title))</text>\n"
        }
        out += "</g>\n<path d=\"\(barTickPath)\" stroke=\"\(ChartPalette.frame)\" stroke-width=\"1\" fill=\"none\"/>\n"

        // Region labels, then markers, then their labels on a white backing, each label in the
        // first of four places around its marker that overlaps no label placed before it.
        var taken: [(x: ClosedRange<Double>, y: ClosedRange<Double>)] = []
        func label(_ s: String, near x: Double, _ y: Double, offsets: [(Double, Double)]) -> String {
            let w = SVGTextMetrics.width(s, fontSize: ChartLayout.markerFont), h = 13.0
            var choice = offsets[0]
            for (dx, dy) in offsets {
                let left = dx < 0 ? x + dx - w : x + dx
                let box = (x: (left - 2)...(left + w + 2), y: (y + dy - h)...(y + dy + 3))
                if !taken.contains(where: { $0.x.overlaps(box.x) && $0.y.overlaps(box.y) }) && left >= 2 && left + w <= width - 2 {
                    choice = (dx, dy)
                    break
                }
            }
            let left = choice.0 < 0 ? x + choice.0 - w : x + choice.0, baseline = y + choice.1
            taken.append((x: (left - 2)...(left + w + 2), y: (baseline - h)...(baseline + 3)))
            return "<rect x=\"\(f(left - 2))\" y=\"\(f(baseline - 11))\" width=\"\(f(w + 4))\" height=\"\(f(h + 1))\" rx=\"2\" fill=\"#FFFFFF\" fill-opacity=\"0.8\"/>\n"
                + text(s, x: left, y: baseline, size: ChartLayout.markerFont, extra: " fill=\"\(ink)\"")
        }
        var shapes = "", labels = ""
        for region in regions where !region.label.isEmpty {
            let corners = region.corners.filter(\.isFinite)
            guard !corners.isEmpty else { continue }
            // Centred below the region, else above it.
            let xs = corners.map(\.x), ys = corners.map(\.y)
            let x = px((xs.min()! + xs.max()!) / 2) - SVGTextMetrics.width(region.label, fontSize: ChartLayout.markerFont) / 2
            let (below, above) = (py(ys.min()!) + 15, py(ys.max()!) - 5)
            labels += label(region.label, near: x, below, offsets: [(0, 0), (0, above - below)])
        }
        for m in markers where m.x.isFinite && m.y.isFinite {
            let (x, y) = (px(m.x), py(m.y))
            switch m.shape {
            case .triangle: shapes += Self.triangle(x, y, f) + " fill=\"\(Self.triangleColor)\" stroke=\"#FFFFFF\" stroke-width=\"1.2\"/>\n"
            case .circle: shapes += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"4.5\" fill=\"#FFFFFF\" stroke=\"\(ink)\" stroke-width=\"1.8\"/>\n"
            }
            if !m.label.isEmpty { labels += label(m.label, near: x, y, offsets: [(8, -6), (8, 14), (-8, -6), (-8, 14)]) }
        }
        out += shapes + labels

        // Legend under the x-axis title: each named marker shape, then the regions.
        if hasLegend {
            var x = plotLeft
            let baseline = height - 10
            for (shape, name) in legend {
                switch shape {
                case .triangle: out += Self.triangle(x + 6, baseline - 4, f) + " fill=\"\(Self.triangleColor)\"/>\n"
                case .circle: out += "<circle cx=\"\(f(x + 6))\" cy=\"\(f(baseline - 4))\" r=\"4.5\" fill=\"#FFFFFF\" stroke=\"\(ink)\" stroke-width=\"1.8\"/>\n"
                }
                out += text(name, x: x + 16, y: baseline, size: ChartLayout.legendFont, extra: " fill=\"\(ink)\"")
                x += 16 + SVGTextMetrics.width(name, fontSize: ChartLayout.legendFont) + 20
            }
            if !regionName.isEmpty && !regions.isEmpty {
                out += "<rect x=\"\(f(x))\" y=\"\(f(baseline - 11))\" width=\"14\" height=\"12\" fill=\"#808080\" fill-opacity=\"0.45\"/>\n"
                out += "<rect x=\"\(f(x))\" y=\"\(f(baseline - 11))\" width=\"14\" height=\"12\" fill=\"url(#heatmap-hatch)\" stroke=\"#333333\" stroke-dasharray=\"4 2\"/>\n"
                out += text(regionName, x: x + 20, y: baseline, size: ChartLayout.legendFont, extra: " fill=\"\(ink)\"")
            }
        }
        return SVGDocument(width: width, height: height, body: out).text
    }

    /// Vermilion: stands out on every colour of the sequential palette, dark or light.
    static let triangleColor = ChartPalette.color(at: 1)

    /// The start of a triangle `<path` centred on (x, y), pointing up; the caller adds paint.
    private static func triangle(_ x: Double, _ y: Double, _ f: (Double) -> String) -> String {
        "<path d=\"M\(f(x)),\(f(y - 7.5))L\(f(x + 7)),\(f(y + 4.5))L\(f(x - 7)),\(f(y + 4.5))Z\""
    }
}
