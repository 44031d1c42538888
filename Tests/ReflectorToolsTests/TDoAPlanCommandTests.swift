@testable import DLTDoA
@testable import EmulatorMath
import Foundation
@testable import ReflectorTools
@testable import ToolJSON
@testable import ToolFiles
import TestSupport
import Testing

/// `reflector-emu tdoa plan`: the error map against the geometry's bound, inside versus outside
/// the anchors, the 2D switch, the heat map it draws, and the errors it gives.
struct TDoAPlanCommandTests {
    /// This test's files, removed when it ends.
    let dir: TemporaryDirectory
    init() throws { dir = try TemporaryDirectory("tdoa-plan") }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let example = root.appendingPathComponent("Examples/dltdoa-room.json").path

    func temporary(_ name: String) -> String { dir.file("\(UUID().uuidString)-\(name)") }

    func write(_ text: String) throws -> String { try dir.write(text, name: "\(UUID().uuidString)-deployment.json") }

    static func anchorsJSON(_ anchors: [(String, Double, Double, Double, Bool)]) -> String {
        "{\"anchors\": [" + anchors.map { a in
            "{\"address\": \"\(a.0)\", \"position_m\": [\(a.1), \(a.2), \(a.3)], \"initiator\": \(a.4)}"
        }.joined(separator: ", ") + "]}"
    }

    static func map(_ d: DLTDOADeployment = .defaultRoom(), grid: Double, margin: Double, height: Double = 1.2) -> TDoAPlanMap {
        TDoAPlanMap(anchors: d.anchors, network: 0x1234, timingSigma: d.timestampSigma, height: height, cellSize: grid, margin: margin)
    }

    /// The cell whose centre is (x, y).
    static func cell(_ map: TDoAPlanMap, _ x: Double, _ y: Double) -> Int? {
        map.values.indices.first { abs(map.centre(ofCell: $0).x - x) < 1e-9 && abs(map.centre(ofCell: $0).y - y) < 1e-9 }
    }

    /// With a UWB range each cell counts only what the phone there would use: at the hall's east
    /// end (x = 44 m) cluster 2 alone (the other initiators are 20 m and more away), in the middle
    /// (x = 24 m) all three, each with its bridge in the parent's round; without the range every
    /// anchor counts everywhere and the east end looks better than it is.
    @Test func rangeLimitsTheClustersACellCounts() throws {
        let d = try DeploymentFile.read(path: Self.root.appendingPathComponent("Examples/dltdoa-clusters.json").path)
        func at(_ map: TDoAPlanMap, _ x: Double) throws -> Double { map.values[try #require(Self.cell(map, x, 4.1))] }  // cell centres: whole x, y 4.1
        let limited = TDoAPlanMap(anchors: d.anchors, network: 0x1235, timingSigma: 0.1, height: 1.2, cellSize: 1, margin: 0.5, range: d.uwbRange)
        let open = TDoAPlanMap(anchors: d.anchors, network: 0x1235, timingSigma: 0.1, height: 1.2, cellSize: 1, margin: 0.5)
        let here = Vector3(44, 4.1, 1.2)
        let east = d.anchors.filter { $0.cluster == 2 && ($0.position - here).length <= 18 }.map(\.position)
        #expect(abs(try at(limited, 44) - TDoAGeometry(clusters: [east], timingSigma: 0.1).crlbRMSE(at: here)) < 1e-12)
        #expect(try at(open, 44) < 0.9 * at(limited, 44))
        let middle = Vector3(24, 4.1, 1.2)
        let rounds = (0..<3).map { c in
            d.anchors.filter { $0.cluster == c || ($0.isInitiator && $0.parentCluster == UInt8(c)) }.map(\.position).filter { ($0 - middle).length <= 18 }
        }
        #expect(abs(try at(limited, 24) - TDoAGeometry(clusters: rounds, timingSigma: 0.1).crlbRMSE(at: middle)) < 1e-12)
    }

    /// A grid whose cell centres fall on whole metres evaluates exactly the geometry's bound; the
    /// median over the room (0.188 m, measured) is a little below the centre's 0.211 m, since the
    /// centre is as far from every anchor as a point in the room gets.
    @Test func defaultRoomMatchesTheGeometry() throws {
        let room = DLTDOADeployment.defaultRoom()
        let coarse = Self.map(grid: 1, margin: 2.5)
        #expect(coarse.columns == 15 && coarse.rows == 13 && !coarse.is2D)
        let geometry = TDoAGeometry(clusters: [room.anchors.map(\.position)], timingSigma: room.timestampSigma)
        let centre = geometry.crlbRMSE(at: Vector3(5, 4, 1.2))
        let i = try #require(Self.cell(coarse, 5, 4))
        #expect(abs(coarse.values[i] - centre) < 1e-9)
        #expect(abs(centre - 0.1 * geometry.gdop(at: Vector3(5, 4, 1.2))) < 1e-12)
        #expect(abs(centre - 0.2106) < 0.001)

        let fine = Self.map(grid: 0.1, margin: 2)
        #expect(fine.columns == 140 && fine.rows == 120)
        let inside = try #require(fine.statistics(insideHullOnly: true))
        #expect(inside.cells == 8000 && inside.unbounded == 0)
        #expect((0.85...0.95).contains(inside.median / centre), "median \(inside.median), centre \(centre)")
        #expect(inside.minimum <= inside.median && inside.median <= inside.percentile90 && inside.percentile90 <= inside.maximum)
        #expect(inside.fractionUnder == [0, 1, 1])
    }

    /// Outside the hull the bound grows: 2 m beyond a corner (diagonally) it is ≥ 2× the corner's.
    @Test func errorGrowsOutsideTheHull() throws {
        let m = Self.map(grid: 1, margin: 2.5)
        let corner = try #require(Self.cell(m, 0, 0)), outside = try #require(Self.cell(m, -2, -2))
        #expect(m.insideHull[corner] && !m.insideHull[outside])
        #expect(m.values[outside] >= 2 * m.values[corner], "\(m.values[outside]) vs \(m.values[corner])")
        let fine = Self.map(grid: 0.1, margin: 2)
        let inside = try #require(fine.statistics(insideHullOnly: true)), whole = try #require(fine.statistics(insideHullOnly: false))
        #expect(whole.maximum > 2 * inside.maximum && whole.median > inside.median)
        #expect(!fine.insideHull[try #require(fine.values.indices.first { $0 == fine.values.indices.max { fine.values[$0] < fine.values[$1] } })])
    }

    /// Anchors on the ceiling only (heights within 1 m): solved in 2D at the receiver height,
    /// as `DLTDOAPositioner` does, and the map says so.
    @Test func ceilingOnlyAnchorsSwitchTo2D() throws {
        let path = try write(Self.anchorsJSON([("0B01", 0, 0, 2.6, true), ("0B02", 8, 0, 3.0, false), ("0B03", 8, 6, 2.8, false), ("0B04", 0, 6, 2.9, false)]))
        let text = try TDoAPlanCommand.run([path, "--grid", "1", "--margin", "0.5", "--height", "1.5"]).output
        #expect(text.contains("solution: 2D at the receiver height 1.50 m (anchor heights span 0.40 m < 1 m)"))
        #expect(text.contains("network 0x1234, 4 anchors in 1 cluster"))
        #expect(text.contains("cluster 0: initiator 0B01, responders 0B02 0B03 0B04"))
        let json = try JSONSerialization.jsonObject(with: Data(try TDoAPlanCommand.run([path, "--json"]).output.utf8)) as! [String: Any]
        #expect(json["solution"] as? String == "2d")

        let d = try DeploymentFile.read(path: path)
        let m = TDoAPlanMap(anchors: d.anchors, network: 0x1234, timingSigma: 0.1, height: 1.5, cellSize: 1, margin: 0.5)
        #expect(m.is2D && m.geometry.fixedHeight == 1.5)
        let g = TDoAGeometry(clusters: [d.anchors.map(\.position)], timingSigma: 0.1, fixedHeight: 1.5)
        #expect(abs(m.values[try #require(Self.cell(m, 4, 3))] - g.crlbRMSE(at: Vector3(4, 3, 0))) < 1e-9)
    }

    /// Three anchors cannot fix a 3D position: every cell is unbounded, reported as such, and
    /// drawn saturated.
    @Test func singularGeometryIsUnbounded() throws {
        let path = try write(Self.anchorsJSON([("0C01", 0, 0, 0.5, true), ("0C02", 6, 0, 2.8, false), ("0C03", 0, 5, 2.8, false)]))
        let plot = temporary("singular.svg")
        let text = try TDoAPlanCommand.run([path, "--grid", "0.5", "--plot", plot]).output
        #expect(text.contains("min unbounded, median unbounded, 90th percentile (interpolated) unbounded, max unbounded"))
        #expect(text.contains("under 0.1 m: 0.0 %, 0.3 m: 0.0 %, 0.5 m: 0.0 %"))
        let json = try JSONSerialization.jsonObject(with: Data(try TDoAPlanCommand.run([path, "--json"]).output.utf8)) as! [String: Any]
        let whole = json["whole_map"] as! [String: Any]
        #expect(whole["median_m"] is NSNull && whole["unbounded_cells"] as? Int == whole["cells"] as? Int)
        let svg = try String(contentsOfFile: plot, encoding: .utf8)
        #expect(SVGProbe.parse(svg).texts.contains { $0.hasPrefix("≥ ") })
    }

    /// The example deployment: the same anchors as the default room, plus an NLOS zone drawn on
    /// the map; every anchor labelled, the title and the colour bar's label present.
    @Test func examplePlot() throws {
        let plot = temporary("example.svg")
        #expect(try TDoAPlanCommand.run([Self.example]).output == TDoAPlanCommand.run([]).output)
        let text = try TDoAPlanCommand.run([Self.example, "--plot", plot]).output
        #expect(text.contains("inside the anchors' hull (80.0 m²), 8000 cells:\n    min 0.122 m, median 0.188 m, 90th percentile (interpolated) 0.209 m, max 0.219 m"))
        #expect(text.hasSuffix("plot: \(plot)\n"))
        let svg = try String(contentsOfFile: plot, encoding: .utf8)
        let texts = SVGProbe.parse(svg).texts
        #expect(texts.contains("Expected DL-TDoA position error, network 0x1234: σ 0.10 m, 3D at 1.2 m"))
        #expect(texts.contains("CRLB RMSE (m)"))
        for address in ["0A01", "0A02", "0A03", "0A04", "0A05", "0A06", "0A07", "0A08"] { #expect(texts.contains(address)) }
        #expect(texts.contains("NLOS +1.0 m") && texts.contains("NLOS zone") && texts.contains("initiator"))
        #expect(svg.components(separatedBy: "h1v1h-1z").count - 1 == 140 * 120)
        #expect(svg.utf8.count < 400_000)
        #expect(!texts.contains { $0.hasPrefix("≥") })  // the default cap (3 × median) is above the maximum
        // A cap below the maximum saturates the corners, and the colour bar says so.
        _ = try TDoAPlanCommand.run([Self.example, "--plot", plot, "--max", "0.3"]).output
        #expect(SVGProbe.parse(try String(contentsOfFile: plot, encoding: .utf8)).texts.contains("≥ 0.30"))
    }

    /// A 140 × 120 map with its plot takes well under a second (0.08 s measured in a debug build).
    @Test func defaultMapIsFast() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let m = Self.map(grid: 0.1, margin: 2)
        _ = TDoAPlanCommand.plot(m, deployment: .defaultRoom(), cap: nil).svg
        _ = m.statistics(insideHullOnly: false)
        #expect(clock.now - start < .seconds(1))
    }

    @Test func helpListsTheOptions() throws {
        let help = try TDoAPlanCommand.run(["--help"]).output
        for flag in ["--noise", "--height", "--grid", "--margin", "--network", "--plot", "--json", "--max"] { #expect(help.contains(flag)) }
    }

    @Test func badInput() throws {
        let bad = try write("{\"anchors\": [{\"address\": \"0A01\", \"position_m\": [0, 0, 2], \"initiator\": true}, {\"address\": \"0A02\", \"position_m\": [1, 2]}]}")
        let cases: [([String], ToolError)] = [
            (["--bogus"], .usage("tdoa plan: unknown option '--bogus' (see reflector-emu tdoa plan --help)")),
            (["--grid", "0"], .usage("tdoa plan: --grid must be a number from 0.02 to 2 metres, found '0'")),
            (["--grid"], .usage("tdoa plan: --grid needs a value (a number from 0.02 to 2 metres)")),
            (["--noise", "0"], .usage("tdoa plan: --noise must be a number above 0 to 10 metres, found '0'")),
            (["--network", "0x99"], .usage("tdoa plan: network 0x99 has 0 anchors; allowed: a network with at least 3 (the deployment has 0x1234)")),
            (["a.json", "b.json"], .usage("tdoa plan: one deployment file at most, found 'a.json' and 'b.json'")),
            (["--grid", "0.02", "--margin", "50"], .usage("tdoa plan: the map would have 5500 × 5400 cells; allowed: at most 1000000 (a larger --grid or a smaller --margin)")),
            (["/nonexistent/room.json"], .badFile("/nonexistent/room.json: cannot read the file")),
            ([bad], .badFile("\(bad): key \"anchors[1].position_m\" is an array; allowed: [x, y, z] in metres")),
        ]
        for (args, expected) in cases {
            #expect(throws: expected) { try TDoAPlanCommand.run(args) }
        }
    }
}
