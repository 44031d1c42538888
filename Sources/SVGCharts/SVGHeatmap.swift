import EmulatorMath

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
            guard let top = finite.last, let median = Quantile.ofSorted(finite, 0.5) else { return lo + 1 }
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

    /// A standalone SVG file: the layout, then the layers from the bottom up (cells, regions,
    /// frame and axes, colour bar, region and marker labels, legend).
    public var svg: String {
        let l = HeatmapLayout(self)
        var out = Self.definitions(l)
        out += cells(l)
        out += regionLayer(l)
        out += frameAndAxes(l)
        out += colorBar(l)
        out += markersAndLabels(l)
        out += legendLayer(l)
        return SVGDocument(width: l.width, height: l.height, body: out).text
    }

    /// Vermilion: stands out on every colour of the sequential palette, dark or light.
    static let triangleColor = ChartPalette.color(at: 1)

    /// The start of a triangle `<path` centred on (x, y), pointing up; the caller adds paint.
    static func triangle(_ x: Double, _ y: Double, _ f: (Double) -> String) -> String {
        "<path d=\"M\(f(x)),\(f(y - 7.5))L\(f(x + 7)),\(f(y + 4.5))L\(f(x - 7)),\(f(y + 4.5))Z\""
    }
}
