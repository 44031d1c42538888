import EmulatorMath
import Foundation
import NearbyEmulation
import PhoneEmulation
import RadioWorld
import ReflectorFirmware
import ToolJSON

/// The options of `reflector-emu nearby`. With no flags: the default walk (a
/// stationary accessory 3 m away; the user sways the phone, walks a quarter circle around it
/// and sways again, 14 s), camera assistance on, no motion hint, an open room in line of sight
/// (one weak reflection) at 20 dB: direction from distances needs decimetre-quiet distances,
/// which the multipath fit keeps even in `light` multipath (about 0.1 m raw error; the phase
/// slope's 0.28 m there leaves the fusion rightly unsure).
public struct NearbyOptions {
    /// How the phone moves.
    public enum PhoneMotionChoice: String, CaseIterable, Sendable {
        /// Sway, walk a quarter circle around the accessory, sway again.
        case walk
        /// Stand and sway the phone (0.5 m sideways, ±6 cm vertical).
        case sway
        /// Hold the phone still.
        case still
    }

    /// How the accessory moves.
    public enum AccessoryMotionChoice: String, CaseIterable, Sendable {
        case stationary
        /// Carried at 0.5 m/s, turning at random.
        case moving
    }

    public var distance = 3.0
    public var duration = 14.0
    public var phone = PhoneMotionChoice.walk
    public var accessory = AccessoryMotionChoice.stationary
    public var hint: MotionActivityState?
    public var cameraAssistance = true
    public var loadChanges: [NearbyScenario.LoadChange] = []
    public var background: [NearbyScenario.Interval] = []
    public var channel = AirChannelChoice.open
    public var snrDB = 20.0
    public var seed: UInt64 = 1
    public var json = false
    public var plotPath: String?
    /// `--view [ADDR:]PORT`, `--view-hold`: the run replayed to a live page.
    public var view = ViewOptions()

    public init() {}


    /// The scenario these options describe.
    public var scenario: NearbyScenario {
        let place = NearbyScenario.accessoryPlace
        let start = Vector3(place.x, place.y - distance, 1.3)
        let phoneMotion: PhoneMotion
        switch phone {
        case .walk: phoneMotion = .defaultWalk(around: place, distance: distance)
        case .sway: phoneMotion = .handHeldSway(at: start, lookingAt: place)
        case .still: phoneMotion = .still(PhoneMotion.looking(from: start, at: place))
        }
        let accessoryMotion: AccessoryMotion = switch accessory {
        case .stationary: .stationary(place)
        case .moving: .randomWalk(from: place, duration: duration, seed: seed &+ 17)
        }
        var scenario = AirScenario(seed: seed, geometry: AirGeometry(distance: distance), channelModel: channel.model, snrDB: snrDB)
        var setup = LoopbackSetup(scenario: scenario)
        setup.parameters.maxProcedureLength = Self.maxProcedureLength
        // A new multipath realization every procedure, as the phone and the room move.
        scenario.channelCoherenceTime = setup.procedureIntervalMicroseconds * 3 / 4
        setup.scenario = scenario
        return NearbyScenario(world: NearbyWorld(phone: phoneMotion, accessory: accessoryMotion), duration: duration, setup: setup,
                              seed: seed, cameraAssistance: cameraAssistance, motionHint: hint, background: background, loadChanges: loadChanges)
    }

    /// Max_Procedure_Len for Nearby runs, 0.625 ms units: 50 ms, room for the default
    /// procedure (75 steps in about 3 connection events), so procedures come every 7 events of
    /// 7.5 ms, 19 per second: enough distances per half metre of phone motion for direction.
    static let maxProcedureLength: UInt16 = 80
}

extension OptionValue where T == MotionActivityState {
    /// The motion hint an app gives.
    static var motionHint: OptionValue {
        let hints: [String: MotionActivityState] = ["stationary": .stationary, "moving": .moving, "unknown": .unknown]
        return OptionValue(allowed: "one of stationary, moving, unknown") { hints[$0] }
    }
}

extension OptionValue where T == NearbyScenario.LoadChange {
    /// `N` (a rate divisor from the start) or `N@T` (from T seconds); N may be none, moderate
    /// (2) or heavy (4).
    static var loadChange: OptionValue {
        OptionValue(allowed: "N or N@SECONDS, N a rate divisor from 1 to 16 or none, moderate, heavy") { v in
            let parts = v.split(separator: "@", omittingEmptySubsequences: false)
            let names: [String: Int] = ["none": 1, "moderate": 2, "heavy": 4]
            guard parts.count <= 2, let n = names[String(parts[0])] ?? Int(parts[0]), let load = CoexistenceLoad(rateDivisor: n) else { return nil }
            var time = 0.0
            if parts.count == 2 {
                guard let t = Double(parts[1]), t.isFinite, t >= 0 else { return nil }
                time = t
            }
            return NearbyScenario.LoadChange(time: time, load: load)
        }
    }
}

extension OptionValue where T == NearbyScenario.Interval {
    /// `START:END` in seconds, 0 <= START < END.
    static var interval: OptionValue {
        OptionValue(allowed: "START:END in seconds with 0 <= START < END") { v in
            let parts = v.split(separator: ":")
            guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite, a >= 0, b > a else { return nil }
            return NearbyScenario.Interval(start: a, end: b)
        }
    }
}

extension NearbyOptions {
    /// The options `arguments` give, read with `nearby`'s option table (as the command does,
    /// `--scenario FILE` included; `--help` is not an option here).
    public init(arguments: [String]) throws(ToolError) {
        self = try NearbyCommand.options.parse(arguments, command: NearbyCommand.name)
    }
}
