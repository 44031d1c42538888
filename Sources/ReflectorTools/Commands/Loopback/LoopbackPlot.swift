import SVGCharts

/// The three panels `reflector-emu loopback --plot FILE.svg` writes, built from plain arrays so
/// that plotting does not depend on the emulator's types (the command copies its diagnostics
/// in; tests feed made-up data):
///
/// 1. Phase against frequency for one procedure: the unwrapped round-trip phase per tone and
///    the fitted line, whose slope gives the distance, d = −slope·c/(4π·1 MHz).
/// 2. The channel impulse response (IFFT magnitude against one-way distance), with the chosen
///    first path and the true distance marked: shows why the estimator picked what it picked.
/// 3. Distance against truth over all procedures: truth, raw estimates (gaps where a procedure
///    gave none) and the smoothed track.
public struct LoopbackPlot: Sendable {
    /// A fitted phase line: `phase(f) ≈ intercept + slopePerMHz·(f − referenceMHz)`, phase in
    /// radians, f in MHz (for the estimator's line at CS channel k, f = 2402 + k MHz).
    public struct PhaseFit: Equatable, Sendable {
        public var slopePerMHz: Double
        public var intercept: Double
        public var referenceMHz: Double

        public init(slopePerMHz: Double, intercept: Double, referenceMHz: Double = 0) {
            self.slopePerMHz = slopePerMHz
            self.intercept = intercept
            self.referenceMHz = referenceMHz
        }

        /// The one-way distance the slope gives, d = −slope·c/(4π·1 MHz), in metres (not
        /// mapped into the ambiguity range).
        public var distance: Double { -slopePerMHz * LoopbackPlot.speedOfLight / (4 * Double.pi * 1e6) }

        func phase(atMHz f: Double) -> Double { intercept + slopePerMHz * (f - referenceMHz) }
    }

    /// m/s; the same value as the estimators' `Ranging.speedOfLight`, repeated here so this
    /// file needs nothing from the emulator.
    static let speedOfLight = 299_792_458.0

    public var frequenciesMHz: [Double]
    /// Unwrapped round-trip phase per frequency, radians (parallel to `frequenciesMHz`).
    public var phases: [Double]
    public var fit: PhaseFit?
    /// The distance estimate of the procedure shown in panel 1; nil takes `fit.distance`.
    public var estimatedDistance: Double?
    /// IFFT magnitude profile: one-way distance in metres and linear magnitude.
    public var impulse: [(distance: Double, magnitude: Double)]
    /// The first path the estimator chose, metres.
    public var firstPath: Double?
    /// The true distance of the procedure in panels 1 and 2, metres.
    public var trueDistance: Double?
    /// Panel 2's x axis ends here (metres); nil zooms to the interesting part near the paths
    /// (the profile repeats every 149.9 m, so its tail is mostly wrap-around).
    public var impulseMaxDistance: Double?
    /// One row per procedure: true distance, raw estimate (nil when there was none) and the
    /// smoothed distance (nil before the filter has a value), metres.
    public var trace: [(procedure: Int, truth: Double?, raw: Double?, smoothed: Double?)]
    /// Width and per-panel height in pixels.
    public var width: Double = 720
    public var panelHeight: Double = 340

    public init(frequenciesMHz: [Double], phases: [Double], fit: PhaseFit?, estimatedDistance: Double? = nil,
                impulse: [(distance: Double, magnitude: Double)], firstPath: Double?, trueDistance: Double?,
                impulseMaxDistance: Double? = nil,
                trace: [(procedure: Int, truth: Double?, raw: Double?, smoothed: Double?)]) {
        self.frequenciesMHz = frequenciesMHz
        self.phases = phases
        self.fit = fit
        self.estimatedDistance = estimatedDistance
        self.impulse = impulse
        self.firstPath = firstPath
        self.trueDistance = trueDistance
        self.impulseMaxDistance = impulseMaxDistance
        self.trace = trace
    }

    /// "3.02 m", or "–" for a missing or non-finite value.
    static func metres(_ d: Double?) -> String {
        guard let d, d.isFinite else { return "–" }
        return SVGNumberFormat.format(d, decimals: 2, trimZeros: false) + " m"
    }

    /// Panel 1: measured phases as markers and the fitted line over the same frequencies.
    public var phaseChart: SVGChart {
        // The line first, so the measured markers stay visible on top of it.
        var series: [ChartSeries] = []
        let distance = estimatedDistance ?? fit?.distance
        var title = "Phase against frequency"
        if let fit {
            let f = frequenciesMHz.filter(\.isFinite)
            if let lo = f.min(), let hi = f.max() {
                series.append(ChartSeries(name: "fit, slope " + SVGNumberFormat.format(fit.slopePerMHz, decimals: 4) + " rad/MHz",
                                          x: [lo, hi], y: [fit.phase(atMHz: lo), fit.phase(atMHz: hi)], style: .line, color: ChartPalette.color(at: 1)))
            }
        }
        series.append(ChartSeries(name: "measured (unwrapped)", x: frequenciesMHz, y: phases, style: .markers, color: ChartPalette.color(at: 0)))
        if distance != nil { title += ": distance " + Self.metres(distance) }
        if let trueDistance, trueDistance.isFinite { title += " (true " + Self.metres(trueDistance) + ")" }
        return SVGChart(title: title, xAxis: ChartAxis(label: "Frequency", unit: "MHz"), yAxis: ChartAxis(label: "Round-trip phase", unit: "rad"),
                        series: series, width: width, height: panelHeight)
    }

    /// Panel 2: the IFFT magnitude profile with the first path and the true distance marked.
    public var impulseChart: SVGChart {
        let points = impulse.map { ChartPoint(x: $0.distance, y: $0.magnitude) }
        var markers: [ChartMarkerLine] = []
        // The truth solid and first, the estimate dashed over it: when the two nearly coincide
        // (the good case) both stay visible.
        if let trueDistance, trueDistance.isFinite {
            markers.append(ChartMarkerLine(x: trueDistance, label: "true " + Self.metres(trueDistance), color: ChartPalette.color(at: 7), dashed: false))
        }
        if let firstPath, firstPath.isFinite {
            markers.append(ChartMarkerLine(x: firstPath, label: "first path " + Self.metres(firstPath), color: ChartPalette.color(at: 1)))
        }
        let xRange: ChartAxis.Range
        let finite = points.filter(\.isFinite)
        if let maxD = impulseMaxDistance, maxD.isFinite, maxD > 0 {
            xRange = .fixed(lower: 0, upper: maxD)
        } else if let dataMax = finite.map(\.x).max(), dataMax > 0 {
            // Zoom: twice the farthest path of interest (and at least 20 m), or all the data if less.
            let peak = finite.max { $0.y < $1.y }?.x ?? 0
            let interest = max(firstPath ?? 0, trueDistance ?? 0, peak)
            let upper = min(dataMax, max(20, 2 * (interest.isFinite ? interest : 0) + 5))
            xRange = .fixed(lower: min(0, finite.map(\.x).min() ?? 0), upper: upper)
        } else {
            xRange = .automatic
        }
        return SVGChart(title: "Channel impulse response (IFFT)",
                        xAxis: ChartAxis(label: "One-way distance", unit: "m", range: xRange),
                        yAxis: ChartAxis(label: "Magnitude", range: .automaticIncludingZero),
                        series: [ChartSeries(name: "", points: points, style: .line, color: ChartPalette.color(at: 0))],
                        markerLines: markers, width: width, height: panelHeight)
    }

    /// Panel 3: truth (when every procedure has one), raw estimates and smoothed distance per procedure.
    public var traceChart: SVGChart {
        let x = trace.map { Double($0.procedure) }
        let truths = trace.compactMap(\.truth)
        let hasTruth = truths.count == trace.count
        var series = hasTruth ? [ChartSeries(name: "true distance", x: x, y: truths, style: .dashedLine, color: ChartPalette.color(at: 7))] : []
        series += [
            ChartSeries(name: "raw estimate", x: x, y: trace.map { $0.raw ?? .nan }, style: .markers, color: ChartPalette.color(at: 1)),
            ChartSeries(name: "smoothed", x: x, y: trace.map { $0.smoothed ?? .nan }, style: .line, color: ChartPalette.color(at: 0)),
        ]
        let missing = trace.filter { $0.raw == nil }.count
        var title = hasTruth ? "Distance against truth" : "Distance per procedure"
        if missing > 0 { title += " (\(missing) of \(trace.count) procedures without an estimate)" }
        return SVGChart(title: title, xAxis: ChartAxis(label: "Procedure"), yAxis: ChartAxis(label: "Distance", unit: "m"),
                        series: series, width: width, height: panelHeight)
    }

    /// The three panels, top to bottom.
    public var panels: SVGPanels { SVGPanels([phaseChart, impulseChart, traceChart]) }

    /// The SVG file's text.
    public var svg: String { panels.svg }
}
