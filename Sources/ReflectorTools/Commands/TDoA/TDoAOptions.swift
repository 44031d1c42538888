import DLTDoA
import ToolFiles
import ToolJSON

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
    /// `--view [ADDR:]PORT`, `--view-hold`: the run replayed to a live page.
    public var view = ViewOptions()
    /// A generated deployment (`DLTDOADeploymentGenerator`) instead of a file: its seed, layout
    /// and whether one anchor is shadowed.
    public var generate: UInt64?
    public var layout: DLTDOADeploymentGenerator.Layout?
    public var shadowed = false

    public init() {}

    /// The deployment, with the flags' overrides.
    public func deployment() throws(ToolError) -> DLTDOADeployment {
        var d = try Self.deployment(path: deploymentPath, generate: generate, layout: layout, shadowed: shadowed, command: "tdoa")
        if let noise { d.timestampSigma = noise }
        if let loss { d.lossProbability = loss }
        if let seed { d.seed = seed }
        return d
    }
}

extension TDoAOptions {
    /// A deployment file, or a generated deployment, or the default room; the file and
    /// `--generate` exclude each other, and `--layout`/`--shadowed` need `--generate`.
    static func deployment(path: String?, generate: UInt64?, layout: DLTDOADeploymentGenerator.Layout?, shadowed: Bool,
                           command: String) throws(ToolError) -> DLTDOADeployment {
        if let path, generate != nil { throw .usage("\(command): a deployment file ('\(path)') or --generate SEED, not both") }
        if generate == nil, layout != nil || shadowed { throw .usage("\(command): --layout and --shadowed describe a generated deployment; add --generate SEED") }
        if let seed = generate { return DLTDOADeploymentGenerator().generate(seed: seed, layout: layout, shadowed: shadowed).deployment }
        return try path.map { (p) throws(ToolError) in try DeploymentFile.read(path: p) } ?? .defaultRoom()
    }

    /// The options `arguments` give, read with `tdoa`'s option table (`--help` is not an
    /// option here).
    public init(arguments: [String]) throws(ToolError) {
        self = try TDoACommand.options.parse(arguments, command: TDoACommand.name)
    }
}
