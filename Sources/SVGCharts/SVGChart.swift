/// A line and scatter chart rendered to SVG with no dependencies, for plots the tools write
/// (`reflector-emu loopback --plot`): title, axis titles with units, 1-2-5 ticks and grid,
/// several series, a legend and labelled vertical marker lines.
///
/// The output is deterministic (the same chart gives byte-identical text: fixed number
/// formatting, no locale, no dictionaries), so plots can be compared and checked in. Degenerate
/// data never traps: non-finite points are skipped, constant data gets a padded range, and a
/// chart without data says so.
public struct SVGChart: Equatable, Sendable {
    public var title: String
    public var xAxis: ChartAxis
    public var yAxis: ChartAxis
    /// Drawn in order (later series on top); colours default to the palette by position.
    public var series: [ChartSeries]
    public var markerLines: [ChartMarkerLine]
    /// Size in pixels (defaults 720 × 360; below 120 × 100 the defaults are used).
    public var width: Double
    public var height: Double

    public init(title: String, xAxis: ChartAxis, yAxis: ChartAxis, series: [ChartSeries] = [],
                markerLines: [ChartMarkerLine] = [], width: Double = 720, height: Double = 360) {
        self.title = title
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.series = series
        self.markerLines = markerLines
        self.width = width
        self.height = height
    }

    /// A standalone SVG file with this chart alone.
    public var svg: String {
        let l = layout()
        return SVGDocument(width: l.width, height: l.height, body: body(idPrefix: "chart", layout: l)).text
    }

    func layout() -> ChartLayout { ChartLayout(self) }

    /// The chart's elements at the origin; `idPrefix` keeps element ids unique when several
    /// charts share one document.
    func body(idPrefix: String, layout l: ChartLayout) -> String {
        var out = ""
        func f(_ v: Double) -> String { SVGNumberFormat.format(v, decimals: 2) }
        func text(_ s: String, x: Double, y: Double, size: Double, anchor: String = "start", extra: String = "") -> String {
            let a = anchor == "start" ? "" : " text-anchor=\"\(anchor)\""
            return "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(f(size))\"\(a)\(extra)>\(SVGEscaping.text(s))</text>\n"
        }
        let ink = ChartPalette.ink
        let (left, top, right, bottom) = (l.plotLeft, l.plotTop, l.plotRight, l.plotBottom)
        let clipID = SVGEscaping.attribute(idPrefix + "-plot")

        out += "<defs><clipPath id=\"\(clipID)\"><rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(right - left))\" height=\"\(f(bottom - top))\"/></clipPath></defs>\n"

        // Grid at the ticks, then the frame over it.
        var grid = ""
        for v in l.xTicks.values { grid += "M\(f(l.px(v))),\(f(top))V\(f(bottom))" }
        for v in l.yTicks.values { grid += "M\(f(left)),\(f(l.py(v)))H\(f(right))" }
        if !grid.isEmpty {
            out += "<path d=\"\(grid)\" fill=\"none\" stroke=\"\(ChartPalette.grid)\" stroke-width=\"1\" shape-rendering=\"crispEdges\"/>\n"
        }
        out += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(right - left))\" height=\"\(f(bottom - top))\" fill=\"none\" stroke=\"\(ChartPalette.frame)\" stroke-width=\"1\" shape-rendering=\"crispEdges\"/>\n"

        // Tick labels.
        out += "<g fill=\"\(ink)\">\n"
        for v in l.xTicks.values {
            out += text(l.xTicks.label(v), x: l.px(v), y: bottom + 16, size: ChartLayout.tickFont, anchor: "middle")
        }
        for v in l.yTicks.values {
            out += text(l.yTicks.label(v), x: left - 6, y: l.py(v) + 4, size: ChartLayout.tickFont, anchor: "end")
        }

        // Title and axis titles.
        if !title.isEmpty {
            out += text(title, x: l.width / 2, y: l.titleBaseline, size: l.titleFontSize, anchor: "middle", extra: " font-weight=\"bold\"")
        }
        if !xAxis.title.isEmpty {
            out += text(xAxis.title, x: (left + right) / 2, y: bottom + 36, size: ChartLayout.axisFont, anchor: "middle")
        }
        if !yAxis.title.isEmpty {
            let cy = (top + bottom) / 2
            out += "<text transform=\"translate(18,\(f(cy))) rotate(-90)\" x=\"0\" y=\"0\" font-size=\"\(f(ChartLayout.axisFont))\" text-anchor=\"middle\">\(SVGEscaping.text(yAxis.title))</text>\n"
        }
        if !l.hasData {
            out += text("no data", x: (left + right) / 2, y: (top + bottom) / 2 + 5, size: ChartLayout.axisFont, anchor: "middle", extra: " fill=\"#888888\"")
        }
        out += "</g>\n"

        // Series, clipped to the plot area.
        out += "<g clip-path=\"url(#\(clipID))\">\n"
        for (i, s) in series.enumerated() {
            let color = SVGEscaping.attribute(s.color ?? ChartPalette.color(at: i))
            if s.style.drawsLine {
                var d = ""
                var pending = "M"
                for p in s.points {
                    guard p.isFinite else { pending = "M"; continue }
                    d += "\(pending)\(f(l.px(p.x))),\(f(l.py(p.y)))"
                    pending = "L"
                }
                if !d.isEmpty {
                    let dash = s.style.isDashed ? " stroke-dasharray=\"6 4\"" : ""
                    out += "<path d=\"\(d)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.8\" stroke-linejoin=\"round\" stroke-linecap=\"round\"\(dash)/>\n"
                }
            }
            if s.style.drawsMarkers {
                let finite = s.points.filter(\.isFinite)
                if !finite.isEmpty {
                    out += "<g fill=\"\(color)\" stroke=\"#FFFFFF\" stroke-width=\"0.75\">\n"
                    for p in finite { out += "<circle cx=\"\(f(l.px(p.x)))\" cy=\"\(f(l.py(p.y)))\" r=\"3\"/>\n" }
                    out += "</g>\n"
                }
            }
        }
        out += "</g>\n"

        // Marker lines across the plot, labels in the band above it on a white backing.
        for m in l.markers {
            let marker = markerLines[m.marker]
            let color = SVGEscaping.attribute(marker.color)
            let dash = marker.dashed ? " stroke-dasharray=\"5 3\"" : ""
            out += "<line x1=\"\(f(m.lineX))\" y1=\"\(f(m.baseline - 4))\" x2=\"\(f(m.lineX))\" y2=\"\(f(bottom))\" stroke=\"\(color)\" stroke-width=\"1.4\"\(dash)/>\n"
            out += text(marker.label, x: m.textX, y: m.baseline, size: ChartLayout.markerFont, anchor: m.anchorEnd ? "end" : "start", extra: " fill=\"\(color)\"")
        }

        // Legend: a sample of each named series' line or marker, then its name.
        for item in l.legend {
            let s = series[item.series]
            let color = SVGEscaping.attribute(s.color ?? ChartPalette.color(at: item.series))
            let y = item.baseline - 4
            if s.style.drawsLine {
                let dash = s.style.isDashed ? " stroke-dasharray=\"6 4\"" : ""
                out += "<line x1=\"\(f(item.x))\" y1=\"\(f(y))\" x2=\"\(f(item.x + ChartLayout.sampleWidth))\" y2=\"\(f(y))\" stroke=\"\(color)\" stroke-width=\"1.8\"\(dash)/>\n"
            }
            if s.style.drawsMarkers {
                out += "<circle cx=\"\(f(item.x + ChartLayout.sampleWidth / 2))\" cy=\"\(f(y))\" r=\"3.5\" fill=\"\(color)\"/>\n"
            }
            out += text(s.name, x: item.x + ChartLayout.sampleWidth + 6, y: item.baseline, size: ChartLayout.legendFont, extra: " fill=\"\(ink)\"")
        }
        return out
    }
}
