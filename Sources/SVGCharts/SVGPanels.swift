/// Several charts stacked top to bottom in one SVG file, so a command writes one picture that
/// shows related views together (the loopback plot's phase line, impulse response and track).
public struct SVGPanels: Equatable, Sendable {
    public var charts: [SVGChart]
    /// Vertical space between panels, in pixels.
    public var spacing: Double

    public init(_ charts: [SVGChart], spacing: Double = 8) {
        self.charts = charts
        self.spacing = spacing.isFinite ? max(0, spacing) : 0
    }

    /// The file's text: each chart in its own group, moved down below the previous one; the
    /// document is as wide as the widest chart.
    public var svg: String {
        var body = ""
        var y = 0.0
        var width = 0.0
        for (i, chart) in charts.enumerated() {
            let l = chart.layout()
            if i > 0 { y += spacing }
            body += "<g transform=\"translate(0,\(SVGNumberFormat.format(y, decimals: 2)))\">\n"
            body += chart.body(idPrefix: "panel\(i)", layout: l)
            body += "</g>\n"
            y += l.height
            width = max(width, l.width)
        }
        return SVGDocument(width: charts.isEmpty ? 720 : width, height: charts.isEmpty ? 360 : y, body: body).text
    }
}
