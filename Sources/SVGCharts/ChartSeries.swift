/// One named data series of an `SVGChart`: its points, how they are drawn, and its colour (by
/// default the palette colour of its position, so charts need not pick colours).
public struct ChartSeries: Equatable, Sendable {
    /// The legend entry; an empty name leaves the series out of the legend.
    public var name: String
    public var points: [ChartPoint]
    public var style: ChartSeriesStyle
    /// A CSS colour such as `#0072B2`; nil takes `ChartPalette.color(at:)` of the series index.
    public var color: String?

    public init(name: String, points: [ChartPoint], style: ChartSeriesStyle = .line, color: String? = nil) {
        self.name = name
        self.points = points
        self.style = style
        self.color = color
    }

    /// A series from parallel arrays; the longer array is cut to the shorter one's length.
    public init(name: String, x: [Double], y: [Double], style: ChartSeriesStyle = .line, color: String? = nil) {
        self.init(name: name, points: zip(x, y).map { ChartPoint(x: $0, y: $1) }, style: style, color: color)
    }
}
