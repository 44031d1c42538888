import DLTDoA
import SVGCharts
import ToolJSON

/// `reflector-emu tdoa plan`: where to put DL-TDoA anchors. Maps the best position error a
/// receiver can expect over the floor for a deployment's anchors (the Cramér–Rao bound, GDOP ×
/// timestamp noise), so a planner sees the weak spots before mounting anything.
public enum TDoAPlanCommand: Command {
    public static let name = "tdoa plan"
    public static let summary = ["map the expected DL-TDoA position error over a floor"]

    public static let help = HelpText(
        usage: "usage: reflector-emu tdoa plan [DEPLOYMENT.json] [options]",
        about: """
            Maps the expected position error of a DL-TDoA receiver over the floor for one network's
            anchors: the Cramér–Rao bound of the position (GDOP × timestamp noise), the best any
            unbiased solver can do with that geometry. Prints the error statistics inside the
            anchors' footprint (their convex hull seen from above) and over the whole map. Like the
            receiver, the map is 2D at the receiver height when the anchors' heights span less than
            1 m, else 3D (the error then includes the height). Without a file: the default room.
            """)

    /// The options of `tdoa plan`.
    public struct Options {
        public var path: String?
        public var noise: Double?
        public var height = 1.2
        public var grid = 0.1
        public var margin = 2.0
        public var cap: Double?
        public var network: UInt32?
        public var plotPath: String?
        public var json = false
        public var generate: UInt64?
        public var layout: DLTDOADeploymentGenerator.Layout?
        public init() {}
    }

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: [
            .value(\.noise, "--noise", "M", .number(0...10, "metres", above: true), help: "timestamp noise σ, metres (default: the deployment's timestamp_noise_m)"),
            .value(\.height, "--height", "M", .number(-100...100, "metres"), help: "receiver height the map is evaluated at, metres (default 1.2)"),
            .value(\.grid, "--grid", "M", .number(0.02...2, "metres"), help: "cell size, metres (0.02-2, default 0.1)"),
            .value(\.margin, "--margin", "M", .number(0...50, "metres"), help: "how far the map reaches beyond the anchors' bounding box, metres",
                   "(0-50, default 2)"),
            .value(\.network, "--network", "ID", .networkIdentifier, help: "the network whose anchors count (decimal or 0x hex; default: the",
                   "first anchor's)"),
            .value(\.cap, "--max", "M", .number(0...1000, "metres", above: true), help: "colour scale cap for --plot, metres (default: 3 × the median error)"),
            .value(\.plotPath, "--plot", "FILE.svg", .text, help: "the map as a heat map with the anchors and NLOS zones"),
            .json(\.json, help: "one JSON object instead of text (null where the error is unbounded)"),
            .value(\.generate, "--generate", "SEED", .unsigned, help: "a generated deployment (as tdoa --generate) instead of a file"),
            .value(\.layout, "--layout", "NAME", .choice(DLTDOADeploymentGenerator.Layout.self), help: "its layout: ceiling, two-heights, walls, corridor"),
        ], positional: Positional("DEPLOYMENT.json") { o, path throws(ToolError) in
            if let first = o.path { throw .usage("tdoa plan: one deployment file at most, found '\(first)' and '\(path)'") }
            o.path = path
        }, helpColumn: 17, messagePrefix: "tdoa plan: ")
    }

    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        let deployment = try TDoAOptions.deployment(path: o.path, generate: o.generate, layout: o.layout, shadowed: false, command: "tdoa plan")
        let chosen = o.network ?? deployment.anchors.first?.networkIdentifier ?? 0
        let anchors = deployment.anchors.filter { $0.networkIdentifier == chosen }
        guard anchors.count >= 3 else {
            let networks = Set(deployment.anchors.map(\.networkIdentifier)).sorted().map(hex).joined(separator: ", ")
            throw .usage("tdoa plan: network \(hex(chosen)) has \(anchors.count) anchors; allowed: a network with at least 3 (the deployment has \(networks))")
        }
        let sigma = o.noise ?? deployment.timestampSigma
        guard sigma > 0 else { throw .usage("tdoa plan: the deployment's timestamp_noise_m is 0; give --noise M (above 0)") }
        let size = TDoAPlanMap.grid(anchors, cellSize: o.grid, margin: o.margin)
        guard size.columns * size.rows <= maximumCells else {
            throw .usage("tdoa plan: the map would have \(size.columns) × \(size.rows) cells; allowed: at most \(maximumCells) (a larger --grid or a smaller --margin)")
        }
        let map = TDoAPlanMap(anchors: anchors, network: chosen, timingSigma: sigma, height: o.height, cellSize: o.grid, margin: o.margin,
                              range: deployment.uwbRange)
        let others = deployment.anchors.count - anchors.count
        if let plotPath = o.plotPath { try OutputFile.write(plot(map, deployment: deployment, cap: o.cap).svg, to: plotPath) }
        if o.json {
            output.jsonLine { jsonReport(map, &$0) }
        } else {
            output.write(textReport(map, otherAnchors: others, plotPath: o.plotPath))
        }
        return .success
    }

    /// 16 MB of SVG, and a second of work: beyond that a finer grid shows nothing new.
    static let maximumCells = 1_000_000

    static func hex(_ network: UInt32) -> String { "0x" + String(network, radix: 16, uppercase: true) }
    static func address(_ a: DLTDOADeployment.Anchor) -> String {
        let s = String(a.address, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
    static func f(_ v: Double, _ decimals: Int) -> String { fixed(v, decimals) }
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
        if let range = map.range { out += "  UWB range \(f(range, 1)) m: a cell counts the clusters whose initiator it hears, and the anchors it hears\n" }
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
            out += "    min \(metres(s.minimum)), median \(metres(s.median)), \(QuantileLabel.p90) \(metres(s.percentile90)), max \(metres(s.maximum))\n"
            out += "    under " + zip(TDoAPlanMap.Statistics.thresholds, s.fractionUnder).map { "\(f($0, 1)) m: \(f($1 * 100, 1)) %" }.joined(separator: ", ")
            out += "; worst at (\(f(s.worst.x, 2)), \(f(s.worst.y, 2))) m\n"
        }
        if let plotPath { out += "plot: \(plotPath)\n" }
        return out
    }

    /// One object; the error statistics of the cells inside the hull and of the whole map,
    /// null where the error is unbounded.
    static func jsonReport(_ map: TDoAPlanMap, _ j: inout JSONWriter) {
        func stats(_ name: StaticString, _ s: TDoAPlanMap.Statistics?, _ j: inout JSONWriter) {
            j.key(name)
            guard let s else { return j.null() }
            j.object { j in
                j.field("cells", s.cells)
                j.field("unbounded_cells", s.unbounded)
                j.field("min_m", s.minimum, decimals: 4)
                j.field("median_m", s.median, decimals: 4)
                j.field("p90_m", s.percentile90, decimals: 4)
                j.field("max_m", s.maximum, decimals: 4)
                j.field("fraction_under_m", object: { j in
                    for (t, fraction) in zip(TDoAPlanMap.Statistics.thresholds, s.fractionUnder) {
                        j.key(text: f(t, 1))
                        j.value(fraction, decimals: 4)
                    }
                })
                j.field("worst", object: { j in
                    j.field("x_m", s.worst.x, decimals: 3)
                    j.field("y_m", s.worst.y, decimals: 3)
                })
            }
        }
        j.object { j in
            j.field("network_id", map.network)
            j.field("anchors", map.anchors.count)
            j.field("clusters", array: { j in
                for c in map.clusters {
                    j.object { j in
                        j.field("cluster", c.first.map { Int($0.cluster) } ?? 0)
                        j.field("initiator", c.first.map(address) ?? "")
                        j.field("responders", c.dropFirst().map(address))
                    }
                }
            })
            j.field("solution", map.is2D ? "2d" : "3d")
            j.field("height_m", map.height, decimals: 3)
            j.field("anchor_height_span_m", map.heightSpan, decimals: 3)
            j.field("timestamp_sigma_m", map.timingSigma, decimals: 4)
            if let range = map.range { j.field("uwb_range_m", range, decimals: 3) }
            j.field("grid_m", map.cellSize, decimals: 3)
            j.field("columns", map.columns)
            j.field("rows", map.rows)
            j.field("map_min_m", [map.x0, map.y0], decimals: 3)
            j.field("map_max_m", [map.x0 + Double(map.columns) * map.cellSize, map.y0 + Double(map.rows) * map.cellSize], decimals: 3)
            j.field("hull_area_m2", map.hullArea, decimals: 3)
            stats("inside_hull", map.statistics(insideHullOnly: true), &j)
            stats("whole_map", map.statistics(insideHullOnly: false), &j)
        }
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
