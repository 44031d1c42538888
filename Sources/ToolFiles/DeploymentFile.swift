import DLTDoA
import EmulatorMath
import Foundation
import ToolJSON

/// A DL-TDoA deployment as `reflector-emu tdoa` and `tdoa plan` read it from JSON: the anchors
/// (address, position, network, cluster, initiator, crystal), NLOS zones, the phone's path and
/// the radio's imperfections. Every wrong value is reported with its key path and what is
/// allowed, for example `key "anchors[3].position_m" is [1, 2]; allowed: [x, y, z] in metres`.
///
/// ```json
/// {"network_id": 4660,
///  "anchors": [{"address": "0A01", "position_m": [0, 0, 2.8], "cluster": 0, "initiator": true, "clock_ppm": 12}, ...],
///  "nlos_zones": [{"min_m": [4, 3, 0], "max_m": [5, 4, 3], "bias_m": 3}],
///  "path": [{"t_s": 0, "position_m": [2, 2, 1.2]}, {"t_s": 6, "position_m": [8, 2, 1.2]}],
///  "receiver_clock_ppm": -6.5, "timestamp_noise_m": 0.1, "loss_probability": 0.02, "block_ms": 200, "seed": 1}
/// ```
///
/// Several clusters: a cluster's initiator may name a `parent_cluster` of its network; it then
/// responds in that cluster's round too and chains its time base from its Polls (a bridge, hop
/// count one more than the parent's). `uwb_range_m` limits how far frames carry (absent:
/// everywhere); a bridge must then be within it of its parent's initiator.
public enum DeploymentFile {
    /// Reads and checks a deployment file.
    public static func read(path: String) throws(ToolError) -> DLTDOADeployment {
        try JSONFile.read(path) { (v) throws(ToolError) in try parse(v) }
    }

    /// Reads and checks a deployment from the bytes of its JSON file.
    public static func parse(_ data: Data) throws(ToolError) -> DLTDOADeployment {
        try parse(JSONValue.parse(data))
    }

    public static func parse(_ json: JSONValue) throws(ToolError) -> DLTDOADeployment {
        let r = try JSONObjectReader(json)
        let allowed = ["network_id", "anchors", "nlos_zones", "path", "receiver_clock_ppm", "timestamp_noise_m", "loss_probability", "block_ms", "seed",
                       "uwb_range_m"]
        for key in r.object.keys.sorted() where !allowed.contains(key) {
            throw .badKey(key: key, problem: "is not a deployment key; allowed: " + allowed.joined(separator: ", "))
        }
        let network = try r.integer("network_id", in: 0...UInt32.max, default: 0x1234)
        let anchors = try list(r, "anchors", required: true).enumerated().map { (i, v) throws(ToolError) in try anchor(v, "anchors[\(i)]", network: network) }
        let range: Double? = try r.optional("uwb_range_m") == nil ? nil : r.number("uwb_range_m", in: 1...1000, unit: "metres")
        try checkClusters(anchors)
        try checkBridges(anchors, range: range)
        let zones = try list(r, "nlos_zones").enumerated().map { (i, v) throws(ToolError) in try zone(v, "nlos_zones[\(i)]") }
        var path = try list(r, "path").enumerated().map { (i, v) throws(ToolError) in try pathPoint(v, "path[\(i)]") }
        for (i, (a, b)) in zip(path, path.dropFirst()).enumerated() where b.time <= a.time {
            throw .badKey(key: "path[\(i + 1)].t_s", problem: "is \(NumberText.plain(b.time)); allowed: later than path[\(i)].t_s (\(NumberText.plain(a.time)))")
        }
        if path.isEmpty { path = DLTDOADeployment.defaultRoom().path }
        return DLTDOADeployment(
            anchors: anchors, zones: zones, path: path,
            receiverClockPPM: try r.number("receiver_clock_ppm", in: -100...100, unit: "ppm", default: 0),
            timestampSigma: try r.number("timestamp_noise_m", in: 0...10, unit: "metres", default: 0.1),
            lossProbability: try r.number("loss_probability", in: 0...0.99, unit: "", default: 0),
            blockDuration: try r.number("block_ms", in: 20...2000, unit: "milliseconds", default: 200) / 1000,
            seed: try r.integer("seed", in: 0...UInt64.max, default: 1), uwbRange: range)
    }

    static func anchor(_ v: JSONValue, _ path: String, network: UInt32) throws(ToolError) -> DLTDOADeployment.Anchor {
        let r = try object(v, path)
        let allowed = ["address", "position_m", "network_id", "cluster", "initiator", "clock_ppm", "drift_ppm_per_s", "parent_cluster"]
        for key in r.object.keys.sorted() where !allowed.contains(key) {
            throw .badKey(key: "\(path).\(key)", problem: "is not an anchor key; allowed: " + allowed.joined(separator: ", "))
        }
        let address: UInt16
        switch r.optional("address") {
        case .string(let s)?:
            guard s.utf8.count == 4, s.utf8.allSatisfy(JSONObjectReader.isASCIIHexDigit), let a = UInt16(s, radix: 16) else { throw .badKey(key: "\(path).address", problem: "is \"\(s)\"; allowed: 4 hexadecimal digits or an integer 0-65535") }
            address = a
        case .number?:
            address = try prefixed(path) { () throws(ToolError) in try r.integer("address", in: 0...UInt16.max) }
        default:
            throw .badKey(key: "\(path).address", problem: "is \(r.optional("address")?.brief ?? "missing"); allowed: 4 hexadecimal digits or an integer 0-65535")
        }
        return try prefixed(path) { () throws(ToolError) in
            DLTDOADeployment.Anchor(
                address: address, position: try vector(r, "position_m"),
                networkIdentifier: try r.integer("network_id", in: 0...UInt32.max, default: network),
                cluster: try r.integer("cluster", in: 0...32, default: 0), isInitiator: try r.bool("initiator", default: false),
                clockPPM: try r.number("clock_ppm", in: -40...40, unit: "ppm", default: 0),
                clockDriftPPMPerSecond: try r.number("drift_ppm_per_s", in: -1...1, unit: "ppm/s", default: 0),
                parentCluster: try r.optional("parent_cluster") == nil ? nil : r.integer("parent_cluster", in: UInt8(0)...32))
        }
    }

    /// One initiator per cluster, at most eight responders, addresses unique in a network.
    static func checkClusters(_ anchors: [DLTDOADeployment.Anchor]) throws(ToolError) {
        guard !anchors.isEmpty else { throw .badKey(key: "anchors", problem: "is empty; allowed: a list of at least 4 anchors") }
        var seen = Set<String>()
        for (i, a) in anchors.enumerated() where !seen.insert("\(a.networkIdentifier)/\(a.address)").inserted {
            throw .badKey(key: "anchors[\(i)].address", problem: "repeats \(String(a.address, radix: 16, uppercase: true)) in network \(a.networkIdentifier); allowed: one anchor per address")
        }
        let clusters = Dictionary(grouping: anchors) { "network \($0.networkIdentifier) cluster \($0.cluster)" }
        for (name, members) in clusters.sorted(by: { $0.key < $1.key }) {
            let initiators = members.filter(\.isInitiator).count
            guard initiators == 1 else { throw .badKey(key: "anchors", problem: "has \(initiators) initiators in \(name); allowed: exactly one (\"initiator\": true)") }
            guard members.count <= 9 else { throw .badKey(key: "anchors", problem: "has \(members.count - 1) responders in \(name); allowed: at most 8 (a Poll lists at most 8)") }
        }
    }

    /// A parent cluster only on an initiator, naming another cluster of its network; no loop;
    /// the parent's Poll lists its responders and its bridges, at most 8; with a range, the
    /// bridge within it of the parent's initiator (else it never hears the Poll it chains from).
    static func checkBridges(_ anchors: [DLTDOADeployment.Anchor], range: Double?) throws(ToolError) {
        func initiator(_ network: UInt32, _ cluster: UInt8) -> DLTDOADeployment.Anchor? {
            anchors.first { $0.networkIdentifier == network && $0.cluster == cluster && $0.isInitiator }
        }
        for (i, a) in anchors.enumerated() {
            guard let p = a.parentCluster else { continue }
            let key = "anchors[\(i)].parent_cluster"
            guard a.isInitiator else { throw .badKey(key: key, problem: "is \(p) on a responder; allowed: only on a cluster's initiator (the bridge)") }
            guard p != a.cluster, let parent = initiator(a.networkIdentifier, p) else {
                throw .badKey(key: key, problem: "is \(p); allowed: another cluster of network \(a.networkIdentifier) (not \(a.cluster), its own)")
            }
            var seen: Set<UInt8> = [a.cluster]
            var current = parent
            while true {
                guard seen.insert(current.cluster).inserted else {
                    throw .badKey(key: key, problem: "is \(p), whose chain of parents loops back to cluster \(current.cluster); allowed: a chain ending at a cluster without a parent (the time reference)")
                }
                guard let next = current.parentCluster, let up = initiator(a.networkIdentifier, next) else { break }
                current = up
            }
            let d = (a.position - parent.position).length
            if let range, d > range {
                throw .badKey(key: key, problem: "is \(p), whose initiator is \(NumberText.plain((d * 100).rounded() / 100)) m away; allowed: a cluster whose initiator is within uwb_range_m (\(NumberText.plain(range)) m)")
            }
        }
        let clusters = Dictionary(grouping: anchors) { "network \($0.networkIdentifier) cluster \($0.cluster)" }
        for (name, members) in clusters.sorted(by: { $0.key < $1.key }) {
            guard let head = members.first(where: \.isInitiator) else { continue }
            let bridges = anchors.filter { $0.networkIdentifier == head.networkIdentifier && $0.isInitiator && $0.parentCluster == head.cluster && $0.cluster != head.cluster }
            guard members.count - 1 + bridges.count <= 8 else {
                throw .badKey(key: "anchors", problem: "has \(members.count - 1) responders and \(bridges.count) bridges in \(name); allowed: at most 8 together (a Poll lists at most 8)")
            }
        }
    }

    static func zone(_ v: JSONValue, _ path: String) throws(ToolError) -> DLTDOADeployment.NLOSZone {
        let r = try object(v, path)
        return try prefixed(path) { () throws(ToolError) in
            let lo = try vector(r, "min_m"), hi = try vector(r, "max_m")
            guard hi.x > lo.x, hi.y > lo.y, hi.z > lo.z else { throw .badKey(key: "max_m", problem: "is not above min_m on every axis") }
            return DLTDOADeployment.NLOSZone(minimum: lo, maximum: hi, bias: try r.number("bias_m", in: 0...100, unit: "metres"))
        }
    }

    static func pathPoint(_ v: JSONValue, _ path: String) throws(ToolError) -> DLTDOADeployment.PathPoint {
        let r = try object(v, path)
        return try prefixed(path) { () throws(ToolError) in
            DLTDOADeployment.PathPoint(time: try r.number("t_s", in: 0...3600, unit: "seconds"), position: try vector(r, "position_m"))
        }
    }

    static func object(_ v: JSONValue, _ path: String) throws(ToolError) -> JSONObjectReader {
        guard case .object = v else { throw .badKey(key: path, problem: "is \(v.brief); allowed: a JSON object") }
        return try JSONObjectReader(v)
    }

    static func list(_ r: JSONObjectReader, _ key: String, required: Bool = false) throws(ToolError) -> [JSONValue] {
        switch r.optional(key) {
        case .array(let a)?: return a
        case nil where !required: return []
        case let v: throw .badKey(key: key, problem: "is \(v?.brief ?? "missing"); allowed: a list")
        }
    }

    static func vector(_ r: JSONObjectReader, _ key: String) throws(ToolError) -> Vector3 {
        guard case .array(let a)? = r.optional(key), a.count == 3, case .number(let x) = a[0], case .number(let y) = a[1], case .number(let z) = a[2],
              [x, y, z].allSatisfy({ abs($0.double) <= 100_000 }) else {
            throw .badKey(key: key, problem: "is \(r.optional(key)?.brief ?? "missing"); allowed: [x, y, z] in metres")
        }
        return Vector3(x.double, y.double, z.double)
    }

    /// Runs `body`, putting `path.` in front of the key of a key error.
    static func prefixed<T>(_ path: String, _ body: () throws(ToolError) -> T) throws(ToolError) -> T {
        do { return try body() } catch {
            if case let .badKey(key, problem) = error { throw .badKey(key: "\(path).\(key)", problem: problem) }
            throw error
        }
    }
}
