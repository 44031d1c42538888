import EmulatorMath
import Foundation
import NearbyEmulation
import PhoneEmulation
import RadioWorld
import ReflectorFirmware

/// The flags of `reflector-emu nearby`, parsed and checked. With no flags: the default walk (a
/// stationary accessory 3 m away; the user sways the phone, walks a quarter circle around it
/// and sways again, 14 s), camera assistance on, no motion hint, an open room in line of sight
/// (one weak reflection) at 20 dB: direction from distances needs decimetre-quiet distances,
/// and in `light` multipath (0.28 m raw error) the fusion rightly stays unsure.
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
    public var channel: AirChannelModel = LoopbackOptions.open
    public var snrDB = 20.0
    public var seed: UInt64 = 1
    public var json = false
    public var plotPath: String?

    public init() {}

    public init(arguments: [String]) throws(ToolError) {
        let args = try Self.expandingScenarioFiles(arguments)
        var r = FlagReader(args)
        while let a = r.next() {
            switch a {
            case "--distance": distance = try r.number("--distance", 0.5...30, "m")
            case "--duration": duration = try r.number("--duration", 1...600, "s")
            case "--phone": phone = try r.choice("--phone", PhoneMotionChoice.self)
            case "--accessory": accessory = try r.choice("--accessory", AccessoryMotionChoice.self)
            case "--hint":
                let v = try r.value("--hint")
                guard let h = Self.hints[v] else { throw .usage("--hint must be one of stationary, moving, unknown, found '\(v)'") }
                hint = h
            case "--no-camera": cameraAssistance = false
            case "--coexistence": loadChanges.append(try Self.loadChange(r.value("--coexistence")))
            case "--background": background.append(try Self.interval(r.value("--background")))
            case "--channel": channel = try LoopbackOptions.channelModel(r.value("--channel"))
            case "--snr": snrDB = try r.number("--snr", -10...80, "dB")
            case "--seed": seed = try r.unsigned("--seed")
            case "--json": json = true
            case "--plot": plotPath = try r.value("--plot")
            default: throw .usage("nearby: unknown option '\(a)' (see reflector-emu nearby --help)")
            }
        }
        for b in background where b.start >= duration {
            throw .usage("--background \(LoopbackOptions.format(b.start)):\(LoopbackOptions.format(b.end)) starts after the run ends (--duration \(LoopbackOptions.format(duration)))")
        }
    }

    /// The keys of a scenario file: the flags' names without dashes ("camera": false is
    /// --no-camera; "background" and "coexistence" take a list of the flags' values).
    static let scenarioKeys = ["distance", "duration", "phone", "accessory", "hint", "camera", "coexistence", "background", "channel", "snr", "seed"]

    /// Replaces each `--scenario FILE` with the flags its JSON object stands for, in place, so
    /// that later flags override the file and every value goes through the same checks.
    static func expandingScenarioFiles(_ args: [String]) throws(ToolError) -> [String] {
        var out: [String] = []
        var i = 0
        while i < args.count {
            guard args[i] == "--scenario" else {
                out.append(args[i])
                i += 1
                continue
            }
            guard i + 1 < args.count, !args[i + 1].hasPrefix("--") else { throw .usage("--scenario needs a value") }
            let path = args[i + 1]
            guard let data = FileManager.default.contents(atPath: path) else { throw .badFile("\(path): cannot read the file") }
            do {
                out += try scenarioArguments(JSONValue.parse(data))
            } catch {
                throw .badFile("\(path): \(error.description)")
            }
            i += 2
        }
        return out
    }

    /// The flags a scenario file's object stands for.
    static func scenarioArguments(_ json: JSONValue) throws(ToolError) -> [String] {
        let r = try JSONObjectReader(json)
        var flags: [String] = []
        for key in r.object.keys.sorted() {
            guard scenarioKeys.contains(key) else {
                throw .badKey(key: key, problem: "is not a scenario key; allowed: " + scenarioKeys.joined(separator: ", "))
            }
            let value = r.object[key]!
            if key == "camera" {
                if try !r.bool(key) { flags.append("--no-camera") }
                continue
            }
            let values: [JSONValue]
            if key == "background" || key == "coexistence" {
                guard case .array(let list) = value else { throw .badKey(key: key, problem: "is \(value.brief); allowed: a list of --\(key) values") }
                values = list
            } else {
                values = [value]
            }
            for v in values {
                let text: String
                switch v {
                case .string(let s): text = s
                case .number(let n): text = n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
                default: throw .badKey(key: key, problem: "is \(v.brief); allowed: a number or a string as --\(key) takes it")
                }
                flags += ["--" + key, text]
            }
        }
        return flags
    }

    static let hints: [String: MotionActivityState] = ["stationary": .stationary, "moving": .moving, "unknown": .unknown]

    /// `N` (a rate divisor from the start) or `N@T` (from T seconds); N may be none, moderate
    /// (2) or heavy (4).
    static func loadChange(_ v: String) throws(ToolError) -> NearbyScenario.LoadChange {
        let parts = v.split(separator: "@", omittingEmptySubsequences: false)
        let names: [String: Int] = ["none": 1, "moderate": 2, "heavy": 4]
        let bad = ToolError.usage("--coexistence must be N or N@SECONDS, N a rate divisor from 1 to 16 or none, moderate, heavy; found '\(v)'")
        guard parts.count <= 2, let n = names[String(parts[0])] ?? Int(parts[0]), let load = CoexistenceLoad(rateDivisor: n) else { throw bad }
        var time = 0.0
        if parts.count == 2 {
            guard let t = Double(parts[1]), t.isFinite, t >= 0 else { throw bad }
            time = t
        }
        return NearbyScenario.LoadChange(time: time, load: load)
    }

    /// `START:END` in seconds, START < END.
    static func interval(_ v: String) throws(ToolError) -> NearbyScenario.Interval {
        let parts = v.split(separator: ":")
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), a.isFinite, b.isFinite, a >= 0, b > a else {
            throw .usage("--background must be START:END in seconds with 0 <= START < END, found '\(v)'")
        }
        return NearbyScenario.Interval(start: a, end: b)
    }

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
        var scenario = AirScenario(seed: seed, geometry: AirGeometry(distance: distance), channelModel: channel, snrDB: snrDB)
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
