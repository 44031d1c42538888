import DLTDoA
import SVGCharts

/// `reflector-emu tdoa plan`: where to put DL-TDoA anchors. Maps the best position error a
/// receiver can expect over the floor for a deployment's anchors (the Cramér–Rao bound, GDOP ×
/// timestamp noise), so a planner sees the weak spots before mounting anything.
public enum TDoAPlanCommand {
    public static let help = """
        usage: reflector-emu tdoa plan [DEPLOYMENT.json] [options]

        Maps the expected position error of a DL-TDoA receiver over the floor for one network's
        anchors: the Cramér–Rao bound of the position (GDOP × timestamp noise), the best any
        unbiased solver can do with that geometry. Prints the error statistics inside the
        anchors' footprint (their convex hull seen from above) and over the whole map. Like the
        receiver, the map is 2D at the receiver height when the anchors' heights span less than
        1 m, else 3D (the error then includes the height). Without a file: the default room.

          --noise M        timestamp noise σ, metres (default: the deployment's timestamp_noise_m)
          --height M       receiver height the map is evaluated at, metres (default 1.2)
          --grid M         cell size, metres (0.02-2, default 0.1)
          --margin M       how far the map reaches beyond the anchors' bounding box, metres
                           (0-50, default 2)
          --network ID     the network whose anchors count (decimal or 0x hex; default: the
                           first anchor's)
          --max M          colour scale cap for --plot, metres (default: 3 × the median error)
          --plot FILE.svg  the map as a heat map with the anchors and NLOS zones
          --json           one JSON object instead of text (null where the error is unbounded)

        """

    /// Runs the command and returns what it prints; throws a one-line error for bad input.
    public static func run(_ args: [String]) throws(ToolError) -> String {
        var path: String?
        var noise: Double?, height = 1.2, grid = 0.1, margin = 2.0, cap: Double?
        var network: UInt32?
        var plotPath: String?
        var json = false
        var r = FlagReader(args, prefix: "tdoa plan: ")
        while let a = r.next() {
            switch a {
            case "--noise": noise = try r.number("--noise", 0...10, "metres", above: true)
            case "--height": height = try r.number("--height", -100...100, "metres")
            case "--grid": grid = try r.number("--grid", 0.02...2, "metres")
            case "--margin": margin = try r.number("--margin", 0...50, "metres")
            case "--max": cap = try r.number("--max", 0...1000, "metres", above: true)
            case "--network": network = try r.networkIdentifier("--network")
            case "--plot": plotPath = try r.value("--plot")
            case "--json": json = true
            case "-h", "--help": return help
            case let a where a.hasPrefix("-") && a.count > 1:
                throw .usage("tdoa plan: unknown option '\(a)' (see reflector-emu tdoa plan --help)")
            case let a:
                guard path == nil else { throw .usage("tdoa plan: one deployment file at most, found '\(path!)' and '\(a)'") }
                path = a
            }
        }

        let deployment = try path.map { (p) throws(ToolError) in try DeploymentFile.read(path: p) } ?? DLTDOADeployment.defaultRoom()
        let chosen = network ?? deployment.anchors.first?.networkIdentifier ?? 0
        let anchors = deployment.anchors.filter { $0.networkIdentifier == chosen }
        guard anchors.count >= 3 else {
            let networks = Set(deployment.anchors.map(\.networkIdentifier)).sorted().map(hex).joined(separator: ", ")
            throw .usage("tdoa plan: network \(hex(chosen)) has \(anchors.count) anchors; allowed: a network with at least 3 (the deployment has \(networks))")
        }
        let sigma = noise ?? deployment.timestampSigma
        guard sigma > 0 else { throw .usage("tdoa plan: the deployment's timestamp_noise_m is 0; give --noise M (above 0)") }
        let size = TDoAPlanMap.grid(anchors, cellSize: grid, margin: margin)
        guard size.columns * size.rows <= maximumCells else {
            throw .usage("tdoa plan: the map would have \(size.columns) × \(size.rows) cells; allowed: at most \(maximumCells) (a larger --grid or a smaller --margin)")
        }
        let map = TDoAPlanMap(anchors: anchors, network: chosen, timingSigma: sigma, height: height, cellSize: grid, margin: margin)
        let others = deployment.anchors.count - anchors.count
        if let plotPath { try LoopbackCommand.write(plot(map, deployment: deployment, cap: cap).svg, to: plotPath) }
        return json ? jsonReport(map, plotPath: plotPath) + "\n" : textReport(map, otherAnchors: others, plotPath: plotPath)
    }

    /// 16 MB of SVG, and a second of work: beyond that a finer grid shows nothing new.
    static let maximumCells = 1_000_000

    static func hex(_ network: UInt32) -> String { "0x" + String(network, radix: 16, uppercase: true) }
    static func address(_ a: DLTDOADeployment.Anchor) -> String {
        let s = String(a.address, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
    static func f(_ v: Double, _ decimals: Int) -> String { SVGNumberFormat.format(v, decimals: decimals, trimZeros: false) }
    static func metres(_ v: Double) -> String { v.isFinite ? f(v, 3) + " m" : "unbounded" }

    static func solution(_ map: TDoAPlanMap) -> String {
        map.is2D
            ? "2D at the receiver height \(f(map.height, 2)) m (anchor heights span \(f(map.heightSpan, 2)) m < 1 m)"
            : "3D (anchor heights span \(f(map.heightSpan, 2)) m), evaluated at \(f(map.height, 2)) m; the error includes the height"
    }

    static func textReport(_ map: TDoAPlanMap, otherAnchors: Int, plotPath: String?) -> String {
        let anchorCount = map.clusters.map(\.count).reduce(0, +)
        var out = "DL-TDoA anchor plan: network \(hex(map.network)), \(anchorCount) anchors in \(map.clusters.count) cluster\(map.clusters.count == 1 ? "" : "s")"
        out += otherAnchors > 0 ? " (\(otherAnchors) anchors of other networks left out)\n" : "\n"
        for cluster in map.clusters {
            guard let first = cluster.first else { continue }
            out += "  cluster \(first.cluster): initiator \(address(first)), responders " + cluster.dropFirst().map(address).joined(separator: " ") + "\n"
        }
        out += "  solution: \(solution(map))\n"
        out += "  timestamp noise σ \(f(map.timingSigma, 3)) m; map x \(f(map.x0, 2))…\(f(map.x0 + Double(map.columns) * map.cellSize, 2)) m, "
            + "y \(f(map.y0, 2))…\(f(map.y0 + Double(map.rows) * map.cellSize, 2)) m, \(map.columns) × \(map.rows) cells of \(f(map.cellSize, 2)) m\n"
        out += "expected position error (CRLB RMSE):\n"
        for (name, stats) in [("inside the anchors' hull (\(f(map.hullArea, 1)) m²)", map.statistics(insideHullOnly: true)),
                              ("whole map", map.statistics(insideHullOnly: false))] {
            guard let s = stats else {
                out += "  \(name): no cells (the anchors are on a line)\n"
                continue
            }
            out += "  \(name), \(s.cells) cells\(s.unbounded > 0 ? ", \(s.unbounded) unbounded" : ""):\n"
            out += "    min \(metres(s.minimum)), median \(metres(s.median)), 90th percentile \(metres(s.percentile90)), max \(metres(s.maximum))\n"
            out += "    under " + zip(TDoAPlanMap.Statistics.thresholds, s.fractionUnder).map { "\(f($0, 1)) m: \(f($1 * 100, 1)) %" }.joined(separator: ", ")
            out += "; worst at (\(f(s.worst.x, 2)), \(f(s.worst.y, 2))) m\n"
        }
        if let plotPath { out += "plot: \(plotPath)\n" }
        return out
    }

    static func jsonReport(_ map: TDoAPlanMap, plotPath: String?) -> String {
        func m(_ v: Double) -> String { v.isFinite ? f(v, 4) : "null" }
        func stats(_ s: TDoAPlanMap.Statistics?) -> String {
            guard let s else { return "null" }
            let under = zip(TDoAPlanMap.Statistics.thresholds, s.fractionUnder).map { "\"\(f($0, 1))\": \(f($1, 4))" }.joined(separator: ", ")
            return "{\"cells\": \(s.cells), \"unbounded_cells\": \(s.unbounded), \"min_m\": \(m(s.minimum)), \"median_m\": \(m(s.median)), "
                + "\"p90_m\": \(m(s.percentile90)), \"max_m\": \(m(s.maximum)), \"fraction_under_m\": {\(under)}, "
                + "\"worst\": {\"x_m\": \(f(s.worst.x, 3)), \"y_m\": \(f(s.worst.y, 3))}}"
        }
        let clusters = map.clusters.map { c in
            "{\"cluster\": \(c.first.map { Int($0.cluster) } ?? 0), \"initiator\": \"\(c.first.map(address) ?? "")\", \"responders\": ["
                + c.dropFirst().map { "\"\(address($0))\"" }.joined(separator: ", ") + "]}"
        }.joined(separator: ", ")
        return "{\"network_id\": \(map.network), \"anchors\": \(map.anchors.count), \"clusters\": [\(clusters)], "
            + "\"solution\": \"\(map.is2D ? "2d" : "3d")\", \"height_m\": \(f(map.height, 3)), \"anchor_height_span_m\": \(f(map.heightSpan, 3)), "
            + "\"timestamp_sigma_m\": \(f(map.timingSigma, 4)), \"grid_m\": \(f(map.cellSize, 3)), \"columns\": \(map.columns), \"rows\": \(map.rows), "
            + "\"map_min_m\": [\(f(map.x0, 3)), \(f(map.y0, 3))], "
            + "\"map_max_m\": [\(f(map.x0 + Double(map.columns) * map.cellSize, 3)), \(f(map.y0 + Double(map.rows) * map.cellSize, 3))], "
            + "\"hull_area_m2\": \(f(map.hullArea, 3)), \"inside_hull\": \(stats(map.statistics(insideHullOnly: true))), "
            + "\"whole_map\": \(stats(map.statistics(insideHullOnly: false)))}"
    }

    /// The heat map: error cells, initiators as triangles and responders as circles labelled
    /// with their addresses, NLOS zones' footprints hatched.
    static func plot(_ map: TDoAPlanMap, deployment: DLTDOADeployment, cap: Double?) -> SVGHeatmap {
        let markers = map.anchors.map { a in
            SVGHeatmap.Marker(x: a.position.x, y: a.position.y, label: address(a), shape: a.isInitiator ? .triangle : .circle)
        }
        let regions = deployment.zones.map { z in
            SVGHeatmap.Region.rectangle(minX: z.minimum.x, minY: z.minimum.y, maxX: z.maximum.x, maxY: z.maximum.y, label: "NLOS +\(f(z.bias, 1)) m")
        }
        return SVGHeatmap(
            title: "Expected DL-TDoA position error, network \(hex(map.network)): σ \(f(map.timingSigma, 2)) m, "
                + (map.is2D ? "2D" : "3D") + " at \(f(map.height, 1)) m",
            xRange: map.x0...(map.x0 + Double(map.columns) * map.cellSize), yRange: map.y0...(map.y0 + Double(map.rows) * map.cellSize),
            columns: map.columns, rows: map.rows, values: map.values, valueAxis: ChartAxis(label: "CRLB RMSE", unit: "m"),
            cap: cap, markers: markers, regions: regions, markerNames: [.triangle: "initiator", .circle: "responder"], regionName: "NLOS zone")
    }
}
