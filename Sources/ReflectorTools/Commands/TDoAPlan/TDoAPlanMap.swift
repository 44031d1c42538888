import DLTDoA
import EmulatorMath
import SVGCharts

/// The expected position error of a DL-TDoA receiver over a floor, for deciding where anchors
/// go: the Cramér–Rao bound (GDOP × timestamp σ) of one network's anchors at every cell centre
/// of a grid around them, and its statistics inside the anchors' footprint and over the map.
/// The bound is what an unbiased solver reaches at best, so a spot that is bad here stays bad
/// whatever the solver does; only moving or adding anchors helps. With a UWB range, each cell
/// counts only the clusters whose initiator it hears, with the responders (and bridges, which
/// respond in their parent's round) it hears.
struct TDoAPlanMap {
    /// Order statistics of the error over a set of cells; `.infinity` stands for unbounded.
    struct Statistics: Equatable {
        /// The error thresholds `fractionUnder` counts against, metres.
        static let thresholds = [0.1, 0.3, 0.5]

        var cells: Int
        var unbounded: Int
        var minimum: Double
        var median: Double
        var percentile90: Double
        var maximum: Double
        /// The fraction of the cells whose error is below each of `thresholds`.
        var fractionUnder: [Double]
        /// The centre of the cell with the largest error (the first such cell, row by row).
        var worst: ChartPoint
    }

    /// Beyond this GDOP the geometry counts as singular: the error is reported as unbounded
    /// (a bound of 10⁴ σ says nothing a planner can use, and its digits are rounding noise).
    static let unboundedGDOP = 1e4

    let network: UInt32
    /// Each cluster's anchors, the initiator first, clusters by number.
    let clusters: [[DLTDOADeployment.Anchor]]
    let timingSigma: Double
    /// The receiver height the map is evaluated at, metres.
    let height: Double
    /// Highest minus lowest anchor, metres: below `DLTDOAPositioner`'s minimum spread (1 m)
    /// the receiver solves in 2D at an assumed height, and so does the map.
    let heightSpan: Double
    let geometry: TDoAGeometry
    let cellSize: Double
    /// The lower left corner of the map; cell (row, column) is centred at
    /// (x0 + (column + ½) cell, y0 + (row + ½) cell).
    let x0: Double
    let y0: Double
    let columns: Int
    let rows: Int
    /// CRLB RMSE per cell, metres, row after row from the bottom; `.infinity` where unbounded.
    let values: [Double]
    /// How far frames carry, metres (nil: every anchor everywhere).
    let range: Double?
    /// The convex hull of the anchors seen from above, counter-clockwise.
    let hull: [ChartPoint]
    /// Whether each cell's centre lies inside the hull (or on its edge).
    let insideHull: [Bool]

    var anchors: [DLTDOADeployment.Anchor] { clusters.flatMap { $0 } }
    var is2D: Bool { geometry.fixedHeight != nil }

    /// The grid around the anchors' footprint: `margin` beyond their bounding box on each side,
    /// rounded up to whole cells and centred on the box.
    static func grid(_ anchors: [DLTDOADeployment.Anchor], cellSize: Double, margin: Double) -> (x0: Double, y0: Double, columns: Int, rows: Int) {
        let xs = anchors.map(\.position.x), ys = anchors.map(\.position.y)
        let (minX, maxX, minY, maxY) = (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)
        let columns = max(1, Int(((maxX - minX + 2 * margin) / cellSize - 1e-9).rounded(.up)))
        let rows = max(1, Int(((maxY - minY + 2 * margin) / cellSize - 1e-9).rounded(.up)))
        return ((minX + maxX) / 2 - Double(columns) * cellSize / 2, (minY + maxY) / 2 - Double(rows) * cellSize / 2, columns, rows)
    }

    /// Evaluates the map for `anchors` (one network's) at `height`.
    init(anchors networkAnchors: [DLTDOADeployment.Anchor], network: UInt32, timingSigma: Double, height: Double, cellSize: Double, margin: Double,
         range: Double? = nil) {
        self.network = network
        self.range = range
        let numbers = Set(networkAnchors.map(\.cluster)).sorted()
        clusters = numbers.map { n in
            let members = networkAnchors.filter { $0.cluster == n }
            return members.filter(\.isInitiator) + members.filter { !$0.isInitiator }
        }
        self.timingSigma = timingSigma
        self.height = height
        self.cellSize = cellSize
        let heights = networkAnchors.map(\.position.z)
        heightSpan = (heights.max() ?? 0) - (heights.min() ?? 0)
        geometry = TDoAGeometry(clusters: clusters.map { $0.map(\.position) }, timingSigma: timingSigma,
                                fixedHeight: heightSpan < DLTDOAPositioner().minimumHeightSpread ? height : nil)
        (x0, y0, columns, rows) = Self.grid(networkAnchors, cellSize: cellSize, margin: margin)
        hull = Self.convexHull(networkAnchors.map { ChartPoint(x: $0.position.x, y: $0.position.y) })

        // Each round's anchors: the cluster, then the bridges that respond in it.
        let rounds = clusters.map { members in
            members + networkAnchors.filter { $0.isInitiator && $0.parentCluster == members.first?.cluster && $0.cluster != members.first?.cluster }
        }
        var values = [Double](repeating: 0, count: columns * rows)
        var inside = [Bool](repeating: false, count: columns * rows)
        for r in 0..<rows {
            for c in 0..<columns {
                let p = ChartPoint(x: x0 + (Double(c) + 0.5) * cellSize, y: y0 + (Double(r) + 0.5) * cellSize)
                let here = Vector3(p.x, p.y, height)
                var cellGeometry = geometry
                if let range {
                    let heard = rounds.compactMap { round -> [Vector3]? in
                        guard let initiator = round.first, (initiator.position - here).length <= range else { return nil }
                        return round.map(\.position).filter { ($0 - here).length <= range }
                    }
                    cellGeometry = TDoAGeometry(clusters: heard, timingSigma: timingSigma, fixedHeight: geometry.fixedHeight)
                }
                let gdop = cellGeometry.gdop(at: here)
                values[r * columns + c] = gdop.isFinite && gdop <= Self.unboundedGDOP ? gdop * timingSigma : .infinity
                inside[r * columns + c] = Self.contains(hull, p)
            }
        }
        self.values = values
        insideHull = inside
    }

    /// The centre of cell `index` (row after row).
    func centre(ofCell index: Int) -> ChartPoint {
        ChartPoint(x: x0 + (Double(index % columns) + 0.5) * cellSize, y: y0 + (Double(index / columns) + 0.5) * cellSize)
    }

    /// Statistics over the cells inside the hull (`insideHullOnly`) or over the whole map; nil
    /// when there is no such cell (anchors in a line have no inside).
    func statistics(insideHullOnly: Bool) -> Statistics? {
        let cells = values.indices.filter { !insideHullOnly || insideHull[$0] }
        guard let first = cells.first else { return nil }
        let sorted = cells.map { values[$0] }.sorted()
        // EmulatorMath's one definition; an unbounded cell in the interpolation makes the
        // quantile unbounded.
        func quantile(_ q: Double) -> Double { Quantile.ofSorted(sorted, q)! }
        let worst = cells.reduce(first) { values[$1] > values[$0] ? $1 : $0 }
        return Statistics(
            cells: cells.count, unbounded: sorted.filter { !$0.isFinite }.count,
            minimum: sorted[0], median: quantile(0.5), percentile90: quantile(0.9), maximum: sorted[sorted.count - 1],
            fractionUnder: Statistics.thresholds.map { t in Double(sorted.filter { $0 < t }.count) / Double(sorted.count) },
            worst: centre(ofCell: worst))
    }

    /// The hull's area, m² (shoelace formula).
    var hullArea: Double {
        zip(hull, hull.dropFirst() + hull.prefix(1)).map { $0.x * $1.y - $1.x * $0.y }.reduce(0, +) / 2
    }

    /// Andrew's monotone chain: the convex hull counter-clockwise, without collinear points;
    /// fewer than three points when all the points are on a line.
    static func convexHull(_ points: [ChartPoint]) -> [ChartPoint] {
        let sorted = points.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        guard sorted.count >= 3 else { return sorted }
        func cross(_ o: ChartPoint, _ a: ChartPoint, _ b: ChartPoint) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        func chain(_ ps: [ChartPoint]) -> [ChartPoint] {
            var h: [ChartPoint] = []
            for p in ps {
                while h.count >= 2, cross(h[h.count - 2], h[h.count - 1], p) <= 1e-12 { h.removeLast() }
                h.append(p)
            }
            return h
        }
        return Array(chain(sorted).dropLast() + chain(sorted.reversed()).dropLast())
    }

    /// Whether `p` lies inside the counter-clockwise convex polygon `hull` or on its edge.
    static func contains(_ hull: [ChartPoint], _ p: ChartPoint) -> Bool {
        guard hull.count >= 3 else { return false }
        for (a, b) in zip(hull, hull.dropFirst() + hull.prefix(1)) where (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < -1e-9 {
            return false
        }
        return true
    }
}
