/// The drawing steps of `SVGHeatmap.svg`, bottom layer first; each takes the finished layout
/// and returns its SVG elements.
extension SVGHeatmap {
    static func f(_ v: Double) -> String { SVGNumberFormat.format(v, decimals: 2) }

    static func text(_ s: String, x: Double, y: Double, size: Double, anchor: String = "start", extra: String = "") -> String {
        let a = anchor == "start" ? "" : " text-anchor=\"\(anchor)\""
        return "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(size))\"\(a)\(extra)>\(SVGEscaping.text(s))</text>\n"
    }

    /// The plot's clip rectangle and the hatching pattern of the regions.
    static func definitions(_ l: HeatmapLayout) -> String {
        var out = "<defs><clipPath id=\"heatmap-plot\"><rect x=\"\(f(l.plotLeft))\" y=\"\(f(l.top))\" width=\"\(f(l.plotWidth))\" height=\"\(f(l.plotHeight))\"/></clipPath>"
        out += "<pattern id=\"heatmap-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
        out += "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#333333\" stroke-width=\"1.2\"/></pattern></defs>\n"
        return out
    }

    /// The cells: one path per colour band, in grid units (row 0 at the bottom), scaled onto the plot.
    func cells(_ l: HeatmapLayout) -> String {
        guard rows > 0, columns > 0 else { return "" }
        var paths = [String](repeating: "", count: l.levels)
        for r in 0..<rows {
            let gy = String(rows - 1 - r)
            for c in 0..<columns {
                let i = r * columns + c
                paths[band(i < values.count ? values[i] : .nan, lower: l.lower, cap: l.cap, levels: l.levels)] += "M\(c) \(gy)h1v1h-1z"
            }
        }
        let sx = SVGNumberFormat.format(l.plotWidth / Double(columns), decimals: 4), sy = SVGNumberFormat.format(l.plotHeight / Double(rows), decimals: 4)
        var out = "<g transform=\"translate(\(Self.f(l.plotLeft)),\(Self.f(l.top))) scale(\(sx),\(sy))\" shape-rendering=\"crispEdges\">\n"
        for (k, d) in paths.enumerated() where !d.isEmpty {
            out += "<path fill=\"\(ChartPalette.sequentialColor(at: Double(k) / Double(l.levels - 1)))\" d=\"\(d)\"/>\n"
        }
        return out + "</g>\n"
    }

    /// Regions over the cells: grey veil, hatching, dashed outline, clipped to the map; then the frame.
    func regionLayer(_ l: HeatmapLayout) -> String {
        let f = Self.f
        var out = "<g clip-path=\"url(#heatmap-plot)\">\n"
        for region in regions {
            let corners = region.corners.filter(\.isFinite)
            guard corners.count >= 3 else { continue }
            let d = corners.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(f(l.px($0.element.x))),\(f(l.py($0.element.y)))" }.joined() + "Z"
            out += "<path d=\"\(d)\" fill=\"#808080\" fill-opacity=\"0.45\"/>\n"
            out += "<path d=\"\(d)\" fill=\"url(#heatmap-hatch)\" stroke=\"#333333\" stroke-width=\"1.2\" stroke-dasharray=\"4 2\"/>\n"
        }
        out += "</g>\n"
        out += "<rect x=\"\(f(l.plotLeft))\" y=\"\(f(l.top))\" width=\"\(f(l.plotWidth))\" height=\"\(f(l.plotHeight))\" fill=\"none\" stroke=\"\(ChartPalette.frame)\" stroke-width=\"1\" shape-rendering=\"crispEdges\"/>\n"
        return out
    }

    /// Axes: tick marks outside the frame (grid lines would hide the cells), labels, titles.
    func frameAndAxes(_ l: HeatmapLayout) -> String {
        let f = Self.f, text = Self.text
        var tickPath = ""
        for v in l.xTicks.values { tickPath += "M\(f(l.px(v))),\(f(l.plotBottom))v5" }
        for v in l.yTicks.values { tickPath += "M\(f(l.plotLeft)),\(f(l.py(v)))h-5" }
        var out = "<path d=\"\(tickPath)\" stroke=\"\(ChartPalette.frame)\" stroke-width=\"1\" fill=\"none\"/>\n<g fill=\"\(ChartPalette.ink)\">\n"
        for v in l.xTicks.values { out += text(l.xTicks.label(v), l.px(v), l.plotBottom + 17, ChartLayout.tickFont, "middle", "") }
        for v in l.yTicks.values { out += text(l.yTicks.label(v), l.plotLeft - 8, l.py(v) + 4, ChartLayout.tickFont, "end", "") }
        if !title.isEmpty {
            let titleWidth = SVGTextMetrics.width(title, fontSize: ChartLayout.titleFont) * 1.18  // bold is wider
            let size = titleWidth > l.width - 16 ? max(9, ChartLayout.titleFont * (l.width - 16) / titleWidth) : ChartLayout.titleFont
            out += text(title, l.width / 2, 24, size, "middle", " font-weight=\"bold\"")
        }
        if !xAxis.title.isEmpty { out += text(xAxis.title, (l.plotLeft + l.plotRight) / 2, l.plotBottom + 37, ChartLayout.axisFont, "middle", "") }
        if !yAxis.title.isEmpty {
            out += "<text transform=\"translate(18,\(f((l.top + l.plotBottom) / 2))) rotate(-90)\" x=\"0\" y=\"0\" font-size=\"\(f(ChartLayout.axisFont))\" text-anchor=\"middle\">\(SVGEscaping.text(yAxis.title))</text>\n"
        }
        return out + "</g>\n"
    }

    /// The colour bar: the bands bottom to top, ticks at nice values, "≥ cap" on top when
    /// saturated, and the value axis's title.
    func colorBar(_ l: HeatmapLayout) -> String {
        let f = Self.f, text = Self.text
        let barLeft = l.barLeft, barWidth = HeatmapLayout.Margin.barWidth
        var out = "<g shape-rendering=\"crispEdges\">\n"
        for k in 0..<l.levels {
            let y = l.plotBottom - Double(k + 1) * l.plotHeight / Double(l.levels)
            out += "<rect x=\"\(f(barLeft))\" y=\"\(f(y))\" width=\"\(f(barWidth))\" height=\"\(f(l.plotHeight / Double(l.levels) + 0.5))\" fill=\"\(ChartPalette.sequentialColor(at: Double(k) / Double(l.levels - 1)))\"/>\n"
        }
        out += "<rect x=\"\(f(barLeft))\" y=\"\(f(l.top))\" width=\"\(f(barWidth))\" height=\"\(f(l.plotHeight))\" fill=\"none\" stroke=\"\(ChartPalette.frame)\" stroke-width=\"1\"/>\n</g>\n<g fill=\"\(ChartPalette.ink)\">\n"
        var barTickPath = ""
        // A tick too close under the "≥ cap" label is left out.
        for v in l.barTicks.values where !(l.saturated && l.barY(v) < l.top + 12) {
            barTickPath += "M\(f(barLeft + barWidth)),\(f(l.barY(v)))h4"
            out += text(l.barTicks.label(v), barLeft + barWidth + HeatmapLayout.Margin.barLabelGap, l.barY(v) + 4, ChartLayout.tickFont, "start", "")
        }
        if l.saturated { out += text(l.capLabel, barLeft + barWidth / 2, l.top - 5, ChartLayout.tickFont, "middle", "") }
        if !valueAxis.title.isEmpty {
            let x = barLeft + barWidth + HeatmapLayout.Margin.barLabelGap + l.barLabelWidth + HeatmapLayout.Margin.valueTitleOffset
            out += "<text transform=\"translate(\(f(x)),\(f((l.top + l.plotBottom) / 2))) rotate(-90)\" x=\"0\" y=\"0\" font-size=\"\(f(ChartLayout.axisFont))\" text-anchor=\"middle\">\(SVGEscaping.text(valueAxis.title))</text>\n"
        }
        return out + "</g>\n<path d=\"\(barTickPath)\" stroke=\"\(ChartPalette.frame)\" stroke-width=\"1\" fill=\"none\"/>\n"
    }

    /// Region labels, then markers, then their labels on a white backing, each label in the
    /// first of its candidate places that overlaps no label placed before it.
    func markersAndLabels(_ l: HeatmapLayout) -> String {
        var placer = LabelPlacer(width: l.width)
        var shapes = "", labels = ""
        for region in regions where !region.label.isEmpty {
            let corners = region.corners.filter(\.isFinite)
            guard !corners.isEmpty else { continue }
            // Centred below the region, else above it.
            let xs = corners.map(\.x), ys = corners.map(\.y)
            let x = l.px((xs.min()! + xs.max()!) / 2) - SVGTextMetrics.width(region.label, fontSize: ChartLayout.markerFont) / 2
            let (below, above) = (l.py(ys.min()!) + 15, l.py(ys.max()!) - 5)
            labels += placer.label(region.label, near: x, below, offsets: [(0, 0), (0, above - below)])
        }
        for m in markers where m.x.isFinite && m.y.isFinite {
            let (x, y) = (l.px(m.x), l.py(m.y))
            switch m.shape {
            case .triangle: shapes += Self.triangle(x, y, Self.f) + " fill=\"\(Self.triangleColor)\" stroke=\"#FFFFFF\" stroke-width=\"1.2\"/>\n"
            case .circle: shapes += "<circle cx=\"\(Self.f(x))\" cy=\"\(Self.f(y))\" r=\"4.5\" fill=\"#FFFFFF\" stroke=\"\(ChartPalette.ink)\" stroke-width=\"1.8\"/>\n"
            }
            if !m.label.isEmpty { labels += placer.label(m.label, near: x, y, offsets: [(8, -6), (8, 14), (-8, -6), (-8, 14)]) }
        }
        return shapes + labels
    }

    /// The legend under the x-axis title: each named marker shape, then the regions.
    func legendLayer(_ l: HeatmapLayout) -> String {
        guard l.hasLegend else { return "" }
        let f = Self.f, text = Self.text, ink = ChartPalette.ink
        var out = ""
        var x = l.plotLeft
        let baseline = l.height - 10
        for (shape, name) in l.legend {
            switch shape {
            case .triangle: out += Self.triangle(x + 6, baseline - 4, f) + " fill=\"\(Self.triangleColor)\"/>\n"
            case .circle: out += "<circle cx=\"\(f(x + 6))\" cy=\"\(f(baseline - 4))\" r=\"4.5\" fill=\"#FFFFFF\" stroke=\"\(ink)\" stroke-width=\"1.8\"/>\n"
            }
            out += text(name, x + 16, baseline, ChartLayout.legendFont, "start", " fill=\"\(ink)\"")
            x += 16 + SVGTextMetrics.width(name, fontSize: ChartLayout.legendFont) + 20
        }
        if !regionName.isEmpty && !regions.isEmpty {
            out += "<rect x=\"\(f(x))\" y=\"\(f(baseline - 11))\" width=\"14\" height=\"12\" fill=\"#808080\" fill-opacity=\"0.45\"/>\n"
            out += "<rect x=\"\(f(x))\" y=\"\(f(baseline - 11))\" width=\"14\" height=\"12\" fill=\"url(#heatmap-hatch)\" stroke=\"#333333\" stroke-dasharray=\"4 2\"/>\n"
            out += text(regionName, x + 20, baseline, ChartLayout.legendFont, "start", " fill=\"\(ink)\"")
        }
        return out
    }
}

/// Places labels on a white backing, each at the first of its candidate offsets that overlaps
/// no label placed before it and stays inside the picture (else at the first offset).
struct LabelPlacer {
    let width: Double
    private var taken: [(x: ClosedRange<Double>, y: ClosedRange<Double>)] = []

    init(width: Double) { self.width = width }

    mutating func label(_ s: String, near x: Double, _ y: Double, offsets: [(Double, Double)]) -> String {
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
        return "<rect x=\"\(SVGHeatmap.f(left - 2))\" y=\"\(SVGHeatmap.f(baseline - 11))\" width=\"\(SVGHeatmap.f(w + 4))\" height=\"\(SVGHeatmap.f(h + 1))\" rx=\"2\" fill=\"#FFFFFF\" fill-opacity=\"0.8\"/>\n"
            + SVGHeatmap.text(s, x: left, y: baseline, size: ChartLayout.markerFont, extra: " fill=\"\(ChartPalette.ink)\"")
    }
}
