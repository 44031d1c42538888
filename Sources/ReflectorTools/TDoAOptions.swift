import HostEmulator

/// The flags of `reflector-emu tdoa`, parsed and checked. With none: the default room (eight
/// anchors, one cluster, crystals within ±20 ppm, the phone walking a loop for 20 s), 10 cm
/// timestamp noise, Bluetooth LE discovery, clock correction and NLOS rejection on.
public struct TDoAOptions {
    public var deploymentPath: String?
    public var noise: Double?
    public var loss: Double?
    public var seed: UInt64?
    public var network: Int?
    public var wifi = false
    public var clockCorrection = true
    public var outlierRejection = true
    public var json = false
    public var plotPath: String?

    public init() {}

    public init(arguments args: [String]) throws(ToolError) {
        var i = 0
        func value(_ flag: String) throws(ToolError) -> String {
            i += 1
            guard i < args.count, !args[i].hasPrefix("--") else { throw .usage("\(flag) needs a value") }
            return args[i]
        }
        func number(_ flag: String, _ range: ClosedRange<Double>, _ unit: String) throws(ToolError) -> Double {
            let v = try value(flag)
            guard let d = Double(v), d.isFinite, range.contains(d) else {
                throw .usage("\(flag) must be a number from \(LoopbackOptions.format(range.lowerBound)) to \(LoopbackOptions.format(range.upperBound))\(unit.isEmpty ? "" : " " + unit), found '\(v)'")
            }
            return d
        }
        while i < args.count {
            let a = args[i]
            switch a {
            case "--noise": noise = try number("--noise", 0...10, "m")
            case "--loss": loss = try number("--loss", 0...0.99, "")
            case "--seed":
                let v = try value("--seed")
                guard let s = UInt64(v) else { throw .usage("--seed must be a non-negative integer, found '\(v)'") }
                seed = s
            case "--network":
                let v = try value("--network")
                guard let n = v.hasPrefix("0x") ? Int(v.dropFirst(2), radix: 16) : Int(v), (0...Int(UInt32.max)).contains(n) else {
                    throw .usage("--network must be a 32-bit session ID (decimal or 0x hex), found '\(v)'")
                }
                network = n
            case "--wifi": wifi = true
            case "--no-clock-correction": clockCorrection = false
            case "--no-outlier-rejection": outlierRejection = false
            case "--json": json = true
            case "--plot": plotPath = try value("--plot")
            default:
                guard !a.hasPrefix("-"), deploymentPath == nil else { throw .usage("tdoa: unknown option '\(a)' (see reflector-emu tdoa --help)") }
                deploymentPath = a
            }
            i += 1
        }
    }

    /// The deployment, with the flags' overrides.
    public func deployment() throws(ToolError) -> DLTDOADeployment {
        var d = try deploymentPath.map { (p) throws(ToolError) in try DeploymentFile.read(path: p) } ?? .defaultRoom()
        if let noise { d.timestampSigma = noise }
        if let loss { d.lossProbability = loss }
        if let seed { d.seed = seed }
        return d
    }
}
