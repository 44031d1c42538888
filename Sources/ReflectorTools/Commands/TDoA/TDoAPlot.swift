import DLTDoA
import SVGCharts

/// The picture `reflector-emu tdoa --plot FILE.svg` writes: a floor map (east, north) with the
/// anchors, the NLOS zones' outlines, the true path, the fixes and the tracked path; below, the
/// fix error over time against the Cramér-Rao bound.
struct TDoAPlot {
    var run: DLTDOASimulation.Run
    var deployment: DLTDOADeployment
    var network: UInt32
    var width = 720.0

    var mapChart: SVGChart {
        let anchors = deployment.anchors.filter { $0.networkIdentifier == network }
        let truth = stride(from: 0.0, through: deployment.duration, by: 0.05).map { t in deployment.receiverPosition(at: t) }
        var series = [
            ChartSeries(name: "true path", points: truth.map { ChartPoint(x: $0.x, y: $0.y) }, style: .dashedLine, color: ChartPalette.color(at: 7)),
            ChartSeries(name: "fixes", points: run.records.map { ChartPoint(x: $0.fix.fix.position.x, y: $0.fix.fix.position.y) },
                        style: .markers, color: ChartPalette.color(at: 1)),
            ChartSeries(name: "tracked", points: run.records.map { r in r.fix.tracked.map { ChartPoint(x: $0.x, y: $0.y) } ?? ChartPoint(x: .nan, y: .nan) },
                        style: .line, color: ChartPalette.color(at: 0)),
            ChartSeries(name: "initiator anchors", points: anchors.filter(\.isInitiator).map { ChartPoint(x: $0.position.x, y: $0.position.y) },
                        style: .markers, color: ChartPalette.color(at: 3)),
            ChartSeries(name: "responder anchors", points: anchors.filter { !$0.isInitiator }.map { ChartPoint(x: $0.position.x, y: $0.position.y) },
                        style: .markers, color: ChartPalette.color(at: 2)),
        ]
        for (i, z) in deployment.zones.enumerated() {
            let outline = [(z.minimum.x, z.minimum.y), (z.maximum.x, z.minimum.y), (z.maximum.x, z.maximum.y), (z.minimum.x, z.maximum.y), (z.minimum.x, z.minimum.y)]
            series.append(ChartSeries(name: i == 0 ? "NLOS zones" : "", points: outline.map { ChartPoint(x: $0.0, y: $0.1) }, style: .line,
                                      color: ChartPalette.color(at: 5)))
        }
        let xs = anchors.map(\.position.x) + truth.map(\.x), ys = anchors.map(\.position.y) + truth.map(\.y)
        let (cx, cy) = (((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2)
        let half = max(1, (xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0)) * 0.55
        return SVGChart(title: "Floor map: \(anchors.count) anchors, network 0x\(String(network, radix: 16, uppercase: true))",
                        xAxis: ChartAxis(label: "East", unit: "m", range: .fixed(lower: cx - half, upper: cx + half)),
                        yAxis: ChartAxis(label: "North", unit: "m", range: .fixed(lower: cy - half, upper: cy + half)),
                        series: series, width: width, height: width)
    }

    var errorChart: SVGChart {
        let t = run.records.map(\.fix.time)
        let summary = TDoASummary.rms(run.records.map(\.fixError))
        let title = "Fix error" + (summary.map { ": RMSE " + SVGNumberFormat.format($0, decimals: 3, trimZeros: false) + " m" } ?? "")
        return SVGChart(title: title, xAxis: ChartAxis(label: "Time", unit: "s"),
                        yAxis: ChartAxis(label: "Error", unit: "m", range: .automaticIncludingZero),
                        series: [
                            ChartSeries(name: "fix", x: t, y: run.records.map(\.fixError), style: .markers, color: ChartPalette.color(at: 1)),
                            ChartSeries(name: "tracked", x: t, y: run.records.map { $0.trackedError ?? .nan }, style: .line, color: ChartPalette.color(at: 0)),
                            ChartSeries(name: "CRLB (expected RMSE)", x: t, y: run.records.map(\.bound), style: .dashedLine, color: ChartPalette.color(at: 7)),
                        ], width: width, height: 300)
    }

    var svg: String { SVGPanels([mapChart, errorChart]).svg }
}
