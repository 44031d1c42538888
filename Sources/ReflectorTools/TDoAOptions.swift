import DLTDoA

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
        var r = FlagReader(args)
        while let a = r.next() {
            switch a {
            case "--noise": noise = try r.number("--noise", 0...10, "m")
            case "--loss": loss = try r.number("--loss", 0...0.99, "")
            case "--seed": seed = try r.unsigned("--seed")
            case "--network": network = Int(try r.networkIdentifier("--network"))
            case "--wifi": wifi = true
            case "--no-clock-correction": clockCorrection = false
            case "--no-outlier-rejection": outlierRejection = false
            case "--json": json = true
            case "--plot": plotPath = try r.value("--plot")
            default:
                guard !a.hasPrefix("-"), deploymentPath == nil else { throw .usage("tdoa: unknown option '\(a)' (see reflector-emu tdoa --help)") }
                deploymentPath = a
            }
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
