/// Where everything of an `SVGChart` goes, in pixels: margins sized from the estimated widths
/// of the labels (so long tick labels are not clipped), tick counts sized from the room they
/// have (so x labels do not run into each other), legend rows and staggered marker labels.
/// Kept apart from drawing so tests can check positions and so drawing stays a plain walk.
struct ChartLayout {
    static let titleFont = 15.0
    static let axisFont = 12.0
    static let tickFont = 11.0
    static let legendFont = 12.0
    static let markerFont = 11.0
    static let legendRowHeight = 18.0
    static let markerRowHeight = 15.0

    struct LegendItem: Equatable {
        var series: Int
        /// Left end of the sample line; the name starts `sampleWidth + 6` to the right.
        var x: Double
        var baseline: Double
    }

    struct MarkerLabel: Equatable {
        var marker: Int
        /// The line's x in pixels.
        var lineX: Double
        /// The text's anchor x and whether it is `end`-anchored (left of the line).
        var textX: Double
        var anchorEnd: Bool
        var baseline: Double
        var width: Double
    }

    static let sampleWidth = 22.0

    var width: Double, height: Double
    var titleBaseline: Double
    /// The title's font size: `titleFont`, shrunk (down to 9 px) for a title that would not fit.
    var titleFontSize = ChartLayout.titleFont
    var legend: [LegendItem] = []
    var markers: [MarkerLabel] = []
    var plotLeft = 0.0, plotTop = 0.0, plotRight = 0.0, plotBottom = 0.0
    var xLower = 0.0, xUpper = 1.0, yLower = 0.0, yUpper = 1.0
    var xTicks = NiceTicks(lower: 0, upper: 1), yTicks = NiceTicks(lower: 0, upper: 1)
    /// Whether any series has a drawable point (otherwise the chart says "no data").
    var hasData = false

    init(_ chart: SVGChart) {
        width = chart.width.isFinite && chart.width >= 120 ? chart.width : 720
        height = chart.height.isFinite && chart.height >= 100 ? chart.height : 360
        titleBaseline = 24
        let titleWidth = SVGTextMetrics.width(chart.title, fontSize: Self.titleFont) * 1.18  // bold is wider
        if titleWidth > width - 16 { titleFontSize = max(9, Self.titleFont * (width - 16) / titleWidth) }
        var top = chart.title.isEmpty ? 8.0 : 34.0

        // Legend rows, centred under the title; the items wrap when a row is full.
        let named = chart.series.indices.filter { !chart.series[$0].name.isEmpty }
        if !named.isEmpty {
            var rows: [[(series: Int, width: Double)]] = [[]]
            var rowWidth = 0.0
            for i in named {
                let w = Self.sampleWidth + 6 + SVGTextMetrics.width(chart.series[i].name, fontSize: Self.legendFont)
                let gap = rows[rows.count - 1].isEmpty ? 0 : 20.0
                if rowWidth + gap + w > width - 40, !rows[rows.count - 1].isEmpty {
                    rows.append([])
                    rowWidth = 0
                    rows[rows.count - 1].append((i, w))
                    rowWidth = w
                } else {
                    rows[rows.count - 1].append((i, w))
                    rowWidth += gap + w
                }
            }
            for (r, row) in rows.enumerated() {
                let total = row.map(\.width).reduce(0, +) + 20 * Double(row.count - 1)
                var x = max(4, (width - total) / 2)
                let baseline = top + 12 + Double(r) * Self.legendRowHeight
                for item in row {
                    legend.append(LegendItem(series: item.series, x: x, baseline: baseline))
                    x += item.width + 20
                }
            }
            top += 12 + Double(rows.count - 1) * Self.legendRowHeight + 4
        }

        // Data extents; marker lines count on x so that they are on the chart.
        var xs: [Double] = [], ys: [Double] = []
        for s in chart.series {
            for p in s.points where p.isFinite {
                xs.append(p.x)
                ys.append(p.y)
            }
        }
        hasData = !xs.isEmpty
        xs += chart.markerLines.map(\.x).filter(\.isFinite)

        // The marker label band above the plot needs as many rows as labels that would overlap,
        // which depends on the x scale, which depends on the margins: lay out until it settles.
        var markerRows = chart.markerLines.isEmpty ? 0 : 1
        for _ in 0..<4 {
            let needed = layOut(chart, top: top, markerRows: markerRows, xs: xs, ys: ys)
            if needed <= markerRows { break }
            markerRows = needed
        }
    }

    /// Places the plot area, ticks and marker labels for a band of `markerRows` rows; returns
    /// the rows the marker labels need.
    private mutating func layOut(_ chart: SVGChart, top: Double, markerRows: Int, xs: [Double], ys: [Double]) -> Int {
        plotTop = top + (markerRows > 0 ? 6 + Double(markerRows) * Self.markerRowHeight : 10)
        plotBottom = height - 46
        let plotHeight = max(20, plotBottom - plotTop)
        plotBottom = plotTop + plotHeight

        (yLower, yUpper, yTicks) = Self.range(chart.yAxis.range, data: ys, targetCount: min(8, max(2, Int(plotHeight / 45))))
        let yLabelWidth = yTicks.values.map { SVGTextMetrics.width(yTicks.label($0), fontSize: Self.tickFont) }.max() ?? 0
        plotLeft = (chart.yAxis.title.isEmpty ? 10 : 28) + yLabelWidth + 8
        plotRight = width - 24
        let plotWidth = max(20, plotRight - plotLeft)
        plotRight = plotLeft + plotWidth

        // The most x ticks whose labels keep a clear gap between them.
        for target in stride(from: 10, through: 2, by: -1) {
            (xLower, xUpper, xTicks) = Self.range(chart.xAxis.range, data: xs, targetCount: target)
            let labelWidth = xTicks.values.map { SVGTextMetrics.width(xTicks.label($0), fontSize: Self.tickFont) }.max() ?? 0
            let spacing = xTicks.step / (xUpper - xLower) * plotWidth
            if spacing >= labelWidth + 16 || target == 2 { break }
        }
        // Room for half of the last x label right of the frame (the ticks stay as chosen).
        if let last = xTicks.values.last {
            let half = SVGTextMetrics.width(xTicks.label(last), fontSize: Self.tickFont) / 2
            plotRight = max(plotLeft + 20, min(plotRight, width - half - 10))
        }

        // Marker labels: right of the line when they fit, else left; each in the lowest row where
        // it overlaps no other label.
        markers = []
        var rowsUsed: [[ClosedRange<Double>]] = []
        for (i, m) in chart.markerLines.enumerated() where m.x.isFinite && m.x >= xLower && m.x <= xUpper {
            let lineX = px(m.x)
            let w = SVGTextMetrics.width(m.label, fontSize: Self.markerFont)
            let anchorEnd = lineX + 4 + w > width - 4 && lineX - 4 - w >= 4
            let textX = anchorEnd ? lineX - 4 : lineX + 4
            let span = anchorEnd ? (textX - w - 6)...(lineX + 6) : (lineX - 6)...(textX + w + 6)
            var row = 0
            while row < rowsUsed.count, rowsUsed[row].contains(where: { $0.overlaps(span) }) { row += 1 }
            if row == rowsUsed.count { rowsUsed.append([]) }
            rowsUsed[row].append(span)
            markers.append(MarkerLabel(marker: i, lineX: lineX, textX: textX, anchorEnd: anchorEnd,
                                       baseline: plotTop - 5 - Double(row) * Self.markerRowHeight, width: w))
        }
        return rowsUsed.count
    }

    /// The axis range and its ticks for a range mode and the finite data on that axis.
    static func range(_ mode: ChartAxis.Range, data: [Double], targetCount: Int) -> (Double, Double, NiceTicks) {
        var lo = data.min() ?? 0, hi = data.max() ?? 1
        switch mode {
        case .fixed(let a, let b) where a.isFinite && b.isFinite:
            let (l, h) = NiceTicks.paddedRange(a, b)
            return (l, h, NiceTicks(lower: l, upper: h, targetCount: targetCount))
        case .automaticIncludingZero:
            lo = min(lo, 0)
            hi = max(hi, 0)
        case .automatic, .fixed:
            break
        }
        let e = NiceTicks.expanded(lower: lo, upper: hi, targetCount: targetCount)
        return (e.lower, e.upper, e.ticks)
    }

    /// The pixel x of a data x (clamped far outside the frame, where clipping hides it, so that
    /// wild values never print as huge numbers).
    func px(_ x: Double) -> Double {
        Self.clamp(plotLeft + (x - xLower) / (xUpper - xLower) * (plotRight - plotLeft))
    }

    /// The pixel y of a data y (SVG's y grows downwards).
    func py(_ y: Double) -> Double {
        Self.clamp(plotBottom - (y - yLower) / (yUpper - yLower) * (plotBottom - plotTop))
    }

    private static func clamp(_ v: Double) -> Double { v.isFinite ? min(max(v, -100_000), 100_000) : 0 }
}
