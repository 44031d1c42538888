import EmulatorMath
import SVGCharts

/// PREFIX.svg: one panel per channel model, each with every estimator's cumulative distribution
/// of |error| over all the procedures of that channel (every distance, SNR, N_AP and PCT value
/// of the grid pooled). The curve of an estimator is the fraction of all procedures whose
/// error was at most x, so one that often gives no distance levels off below 1 and the gap is
/// its failures. The x axis ends at the largest 99th percentile of the panel, so one far
/// outlier does not squash the curves. Quantiles are EmulatorMath's `Quantile`, the one
/// definition the table uses; each curve has `curvePoints` + 1 points, whatever the procedures.
public enum SweepChart {
    static let curvePoints = 200

    /// The picture of `s`.
    public static func svg(_ s: SweepStatistics) -> String {
        let spec = s.grid.spec
        var charts: [SVGChart] = []
        for (c, channel) in spec.channels.enumerated() {
            let pooled = s.pooledErrors(channel: c)
            var series: [ChartSeries] = []
            var xMax = 0.0
            for (e, estimator) in spec.estimators.enumerated() {
                let magnitudes = pooled[e].filter { !$0.isNaN }.map(abs).sorted()
                guard !magnitudes.isEmpty else { continue }
                let fraction = Double(magnitudes.count) / Double(pooled[e].count)
                series.append(ChartSeries(name: estimator.rawValue, points: curve(magnitudes, fraction: fraction), style: .line,
                                          color: ChartPalette.color(at: e)))
                xMax = max(xMax, Quantile.ofSorted(magnitudes, 0.99) ?? 0)
            }
            let procedures = pooled.first?.count ?? 0
            let xRange: ChartAxis.Range = xMax > 0 && xMax.isFinite ? .fixed(lower: 0, upper: xMax) : .automatic
            charts.append(SVGChart(title: "\(channel.name): CDF of |error|, \(procedures) procedures per estimator",
                                   xAxis: ChartAxis(label: "|error|", unit: "m", range: xRange),
                                   yAxis: ChartAxis(label: "Fraction of procedures", range: .fixed(lower: 0, upper: 1)),
                                   series: series, width: 720, height: 320))
        }
        return SVGPanels(charts).svg
    }

    /// The CDF of sorted magnitudes scaled to `fraction`: from (0, 0), the p-quantile at
    /// fraction·p for p = 0, 1/n … 1.
    static func curve(_ sorted: [Double], fraction: Double) -> [ChartPoint] {
        var points = [ChartPoint(x: 0, y: 0)]
        for k in 0...curvePoints {
            let p = Double(k) / Double(curvePoints)
            if let x = Quantile.ofSorted(sorted, p) { points.append(ChartPoint(x: x, y: p * fraction)) }
        }
        return points
    }
}
