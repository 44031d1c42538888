import PhoneEmulation
import RadioWorld
import RangingEstimation
import ReflectorFirmware

/// The flags of `reflector-emu loopback`, parsed and checked, with the defaults a newcomer
/// gets with no flags: a reflector 3 m away in light multipath (one reflection 1.5 m longer at
/// 0.3 of the direct path's amplitude, a floor or wall bounce), 20 dB per-tone
/// SNR, inline PCT transfer, one antenna path, 20 procedures, the phase-slope estimator.
public struct LoopbackOptions {
    public var startDistance = 3.0
    public var endDistance: Double?
    public var channel: AirChannelModel = LoopbackOptions.light
    public var channelName = "light"
    public var snrDB = 20.0
    public var seed: UInt64 = 1
    public var antennaPaths = 1
    public var inlinePCT = true
    public var procedures = 20
    public var estimatorName = "kay"
    public var json = false
    public var plotPath: String?
    public var btsnoopPath: String?
    public var progress = true

    static let estimators = ["kay", "ls", "ifft", "esprit"]
    static let channels = ["light", "open", "free", "two-ray", "tgn-b", "tgn-c", "tgn-d", "tgn-e"]
    /// Light multipath: a reflection 1.5 m longer than the direct path at 0.3 amplitude.
    static let light = AirChannelModel.twoRay(excessPath: 1.5, amplitude: 0.3, phase: nil)
    /// An open room in line of sight: the same reflection at 0.1 amplitude.
    static let open = AirChannelModel.twoRay(excessPath: 1.5, amplitude: 0.1, phase: nil)

    public init() {}

    public init(arguments args: [String]) throws(ToolError) {
        var r = FlagReader(args)
        while let a = r.next() {
            switch a {
            case "--distance": startDistance = try r.number("--distance", 0.1...149, "m")
            case "--walk":
                let v = try r.value("--walk")
                let parts = v.split(separator: ":")
                guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), (0.1...149).contains(a), (0.1...149).contains(b) else {
                    throw .usage("--walk must be START:END in metres, each from 0.1 to 149, found '\(v)'")
                }
                startDistance = a
                endDistance = b
            case "--channel":
                let v = try r.value("--channel")
                channel = try Self.channelModel(v)
                channelName = v
            case "--snr": snrDB = try r.number("--snr", -10...80, "dB")
            case "--seed": seed = try r.unsigned("--seed")
            case "--antenna-paths":
                let v = try r.value("--antenna-paths")
                guard let n = Int(v), (1...4).contains(n) else { throw .usage("--antenna-paths must be 1, 2, 3 or 4, found '\(v)'") }
                antennaPaths = n
            case "--ipt": inlinePCT = true
            case "--ras": inlinePCT = false
            case "--procedures":
                let v = try r.value("--procedures")
                guard let n = Int(v), (1...1_000_000).contains(n) else { throw .usage("--procedures must be an integer from 1 to 1000000, found '\(v)'") }
                procedures = n
            case "--estimator":
                let v = try r.value("--estimator")
                guard Self.estimators.contains(v) else { throw .usage("--estimator must be one of \(Self.estimators.joined(separator: ", ")), found '\(v)'") }
                estimatorName = v
            case "--json": json = true
            case "--plot": plotPath = try r.value("--plot")
            case "--btsnoop": btsnoopPath = try r.value("--btsnoop")
            case "--no-progress": progress = false
            default: throw .usage("loopback: unknown option '\(a)' (see reflector-emu loopback --help)")
            }
        }
    }

    /// `light` (the default), `open`, `free`, `two-ray` (a reflection 3 m longer at 0.7 amplitude), `two-ray:EXCESS:AMPLITUDE`, or a TGn model.
    static func channelModel(_ v: String) throws(ToolError) -> AirChannelModel {
        switch v {
        case "light": return light
        case "open": return open
        case "free": return .freeSpace
        case "two-ray": return .twoRay(excessPath: 3.0, amplitude: 0.7, phase: nil)
        case "tgn-b": return .tgn(.b, lineOfSight: true)
        case "tgn-c": return .tgn(.c, lineOfSight: true)
        case "tgn-d": return .tgn(.d, lineOfSight: nil)
        case "tgn-e": return .tgn(.e, lineOfSight: nil)
        default:
            let parts = v.split(separator: ":")
            if parts.count == 3, parts[0] == "two-ray", let x = Double(parts[1]), let a = Double(parts[2]), x > 0, x <= 100, a >= 0, a <= 1 {
                return .twoRay(excessPath: x, amplitude: a, phase: nil)
            }
            throw .usage("--channel must be one of \(channels.joined(separator: ", ")) or two-ray:EXCESS_M:AMPLITUDE (excess 0-100 m, amplitude 0-1), found '\(v)'")
        }
    }

    /// The estimator the phone runs.
    public var estimator: any DistanceEstimator {
        switch estimatorName {
        case "ls": return PhaseSlopeEstimator(variant: .leastSquares)
        case "ifft": return IFFTEstimator()
        case "esprit": return ESPRITEstimator()
        default: return PhaseSlopeEstimator(variant: .kay)
        }
    }

    /// The ACI giving `antennaPaths` paths with the phone on one antenna and the accessory on several.
    public var antennaConfigurationIndex: UInt8 { [0, 0, 4, 5, 6][antennaPaths] }

    /// The emulated pair for these options.
    public var setup: LoopbackSetup {
        var scenario = AirScenario(seed: seed, geometry: AirGeometry(distance: startDistance), channelModel: channel, snrDB: snrDB)
        var s = LoopbackSetup(scenario: scenario, antennaConfigurationIndex: antennaConfigurationIndex, inlinePCT: inlinePCT,
                              recordHCI: btsnoopPath != nil)
        // A new multipath realization every procedure; a walk spans the whole run.
        scenario.channelCoherenceTime = s.procedureIntervalMicroseconds * 3 / 4
        if let end = endDistance {
            scenario.geometry.trajectory = AirTrajectory(startDistance: startDistance, endDistance: end, startTime: 0,
                                                         duration: s.procedureIntervalMicroseconds * UInt64(procedures + 1))
        }
        s.scenario = scenario
        return s
    }

    static func format(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
