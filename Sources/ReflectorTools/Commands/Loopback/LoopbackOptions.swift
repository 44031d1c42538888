import CaptureEstimation
import PhoneEmulation
import RadioWorld
import RangingEstimation
import ReflectorFirmware
import ToolJSON

/// The options of `reflector-emu loopback`, with the defaults a newcomer gets with no flags: a
/// reflector 3 m away in light multipath (one reflection 1.5 m longer at 0.3 of the direct
/// path's amplitude, a floor or wall bounce), 20 dB per-tone SNR, inline PCT transfer, one
/// antenna path, 20 procedures, the phase-slope estimator.
public struct LoopbackOptions {
    public var startDistance = 3.0
    public var endDistance: Double?
    public var channel = AirChannelChoice.light
    public var snrDB = 20.0
    public var seed: UInt64 = 1
    public var antennaPaths = 1
    public var inlinePCT = true
    public var procedures = 20
    /// `--estimator`; unless given, the default for the main mode (`defaultEstimator`).
    public var estimator = EstimatorChoice.default
    public var estimatorGiven = false
    /// The main mode: 2 (phase-based ranging, an iPhone's), 1 (round-trip timing) or 3 (both in one step).
    public var mainMode = CSMode.mode2
    /// What follows the access address in a mode-1/3 CS_SYNC.
    public var rttType = RTTType.accessAddressOnly
    public var json = false
    public var plotPath: String?
    public var btsnoopPath: String?
    public var progress = true
    /// `--view [ADDR:]PORT`, `--view-hold`: the live page.
    public var view = ViewOptions()
    /// A new multipath realization every procedure even when nothing moves (people walking in the room).
    public var fading = false
    /// `--antenna-delays`, `--timing-delay`: the accessory board's own delays (none: ideal).
    public var reflectorDelays = AirBoardDelays.none
    /// `--calibration FILE`: taken off every procedure before it is estimated.
    public var calibration: BoardCalibration?

    public init() {}

    /// The estimator a main mode gets when none is named: the multipath fit for mode 2, round-trip
    /// timing for mode 1 (it has no tones), both together for mode 3.
    public static func defaultEstimator(mainMode: CSMode) -> EstimatorChoice {
        switch mainMode {
        case .mode1: .rtt
        case .mode3: .combined
        case .mode0, .mode2: .default
        }
    }

    /// The session's estimator: `estimator`, on a calibrated board through the calibration.
    public var sessionEstimator: any DistanceEstimator {
        calibration.map { CalibratedEstimator(estimator.estimator, calibration: $0) } ?? estimator.estimator
    }

    /// The ACI giving `antennaPaths` paths with the phone on one antenna and the accessory on several.
    public var antennaConfigurationIndex: UInt8 { [0, 0, 4, 5, 6][antennaPaths] }

    /// The emulated pair for these options.
    public var setup: LoopbackSetup {
        var scenario = AirScenario(seed: seed, geometry: AirGeometry(distance: startDistance), channelModel: channel.model, snrDB: snrDB)
        scenario.reflectorDelays = reflectorDelays
        var s = LoopbackSetup(scenario: scenario, antennaConfigurationIndex: antennaConfigurationIndex, inlinePCT: inlinePCT,
                              recordHCI: btsnoopPath != nil)
        s.configuration.mainMode = mainMode
        s.configuration.rttType = rttType
        // The same geometry gives the same channel: a still pair keeps one multipath realization
        // for the run; a walk (or --fading) draws a new one every procedure.
        if endDistance != nil || fading { scenario.channelCoherenceTime = s.procedureIntervalMicroseconds * 3 / 4 }
        if let end = endDistance {
            scenario.geometry.trajectory = AirTrajectory(startDistance: startDistance, endDistance: end, startTime: 0,
                                                         duration: s.procedureIntervalMicroseconds * UInt64(procedures + 1))
        }
        s.scenario = scenario
        return s
    }
}

extension OptionValue where T == (start: Double, end: Double) {
    /// `START:END` in metres, each from 0.1 to 149.
    static var walk: OptionValue {
        OptionValue(allowed: "START:END in metres, each from 0.1 to 149") { v in
            let parts = v.split(separator: ":")
            guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), (0.1...149).contains(a), (0.1...149).contains(b) else {
                return nil
            }
            return (a, b)
        }
    }
}

extension LoopbackOptions {
    /// The options `arguments` give, read with `loopback`'s option table (`--help` is not an
    /// option here).
    public init(arguments: [String]) throws(ToolError) {
        self = try LoopbackCommand.options.parse(arguments, command: LoopbackCommand.name)
    }
}

extension OptionValue where T == CSMode {
    /// A main mode: 1, 2 or 3.
    static var mainMode: OptionValue {
        OptionValue(allowed: "1 (round-trip timing), 2 (phase-based ranging) or 3 (both)") { v in
            switch v {
            case "1": .mode1
            case "2": .mode2
            case "3": .mode3
            default: nil
            }
        }
    }
}

extension RTTType {
    /// The command-line names, in RTT_Type order (Core 6.0 Vol 4 Part E §7.8.137).
    static let names = ["aa", "sounding-32", "sounding-96", "random-32", "random-64", "random-96", "random-128"]
    var name: String { Self.names[Int(rawValue)] }
}

extension OptionValue where T == RTTType {
    /// An RTT type by name.
    static var rttType: OptionValue {
        OptionValue(allowed: "one of " + RTTType.names.joined(separator: ", ")) { v in
            RTTType.names.firstIndex(of: v).flatMap { RTTType(rawValue: UInt8($0)) }
        }
    }
}
