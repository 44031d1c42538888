import DLTDoA

/// The options of `reflector-emu tdoa`. With none: the default room (eight anchors, one
/// cluster, crystals within ±20 ppm, the phone walking a loop for 20 s), 10 cm timestamp
/// noise, Bluetooth LE discovery, clock correction and NLOS rejection on.
public struct TDoAOptions {
    public var deploymentPath: String?
    public var noise: Double?
    public var loss: Double?
    public var seed: UInt64?
    public var network: UInt32?
    public var wifi = false
    public var clockCorrection = true
    public var outlierRejection = true
    public var json = false
    public var plotPath: String?

    public init() {}

    /// The deployment, with the flags' overrides.
    public func deployment() throws(ToolError) -> DLTDOADeployment {
        var d = try deploymentPath.map { (p) throws(ToolError) in try DeploymentFile.read(path: p) } ?? .defaultRoom()
        if let noise { d.timestampSigma = noise }
        if let loss { d.lossProbability = loss }
        if let seed { d.seed = seed }
        return d
    }
}

extension TDoAOptions {
    /// The options `arguments` give, read with `tdoa`'s option table (`--help` is not an
    /// option here).
    public init(arguments: [String]) throws(ToolError) {
        self = try TDoACommand.options.parse(arguments, command: TDoACommand.name)
    }
}
