import NearbyEmulation
import SVGCharts

/// The picture `reflector-emu nearby --plot FILE.svg` writes: a top-down map (east, north) of
/// the phone's true path, the accessory's true positions, and where the app would place the
/// accessory from each update (reported direction × distance, from the true phone pose); and
/// the direction error over time, with suspensions marked.
struct NearbyPlot {
    var run: NearbySimulation.Run
    var title: String
    var width = 720.0

    /// Panel 1: the map, with equal scales on both axes so angles look like angles.
    var mapChart: SVGChart {
        let phone = run.updates.map { ChartPoint(x: $0.phonePose.position.x, y: $0.phonePose.position.y) }
        let truth = run.updates.map { ChartPoint(x: $0.accessoryPosition.x, y: $0.accessoryPosition.y) }
        let estimated = run.updates.compactMap(\.estimatedPosition).map { ChartPoint(x: $0.x, y: $0.y) }
        let all = (phone + truth + estimated).filter(\.isFinite)
        let xs = all.map(\.x), ys = all.map(\.y)
        let (cx, cy) = (((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2)
        let half = max(1, ((xs.max() ?? 0) - (xs.min() ?? 0)), ((ys.max() ?? 0) - (ys.min() ?? 0))) * 0.55
        // The truth last, so the estimates around it do not hide it.
        let series = [
            ChartSeries(name: "phone path (true)", points: phone, style: .line, color: ChartPalette.color(at: 0)),
            ChartSeries(name: "accessory as the app places it", points: estimated, style: .markers, color: ChartPalette.color(at: 1)),
            ChartSeries(name: "accessory (true)", points: truth, style: .lineAndMarkers, color: ChartPalette.color(at: 7)),
        ]
        return SVGChart(title: "Top-down map: \(title)",
                        xAxis: ChartAxis(label: "East", unit: "m", range: .fixed(lower: cx - half, upper: cx + half)),
                        yAxis: ChartAxis(label: "North", unit: "m", range: .fixed(lower: cy - half, upper: cy + half)),
                        series: series, width: width, height: width)
    }

    /// Panel 2: direction and horizontal-angle errors per update (gaps where there was none).
    var errorChart: SVGChart {
        let points = run.updates.map { u in ChartPoint(x: u.object.time, y: u.directionError.map { $0 * 180 / Double.pi } ?? .nan) }
        let horizontal = run.updates.map { u in ChartPoint(x: u.object.time, y: u.horizontalAngleError.map { $0 * 180 / Double.pi } ?? .nan) }
        var markers = run.suspensions.map { ChartMarkerLine(x: $0, label: "background", color: ChartPalette.color(at: 3)) }
        markers += run.suspensionEnds.map { ChartMarkerLine(x: $0, label: "foreground", color: ChartPalette.color(at: 2)) }
        let summary = NearbySummary(run.updates)
        var heading = "Direction error"
        if let m = summary.medianDirectionError { heading += ": median " + SVGNumberFormat.format(m * 180 / Double.pi, decimals: 1) + "°" }
        return SVGChart(title: heading, xAxis: ChartAxis(label: "Time", unit: "s"),
                        yAxis: ChartAxis(label: "Error", unit: "°", range: .automaticIncludingZero),
                        series: [ChartSeries(name: "direction (angle to the true one)", points: points, style: .lineAndMarkers,
                                             color: ChartPalette.color(at: 1)),
                                 ChartSeries(name: "horizontal angle", points: horizontal, style: .line, color: ChartPalette.color(at: 0))],
                        markerLines: markers, width: width, height: 300)
    }

    var svg: String { SVGPanels([mapChart, errorChart]).svg }
}
