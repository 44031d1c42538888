import Foundation
import ReflectorFirmware
import ToolJSON

/// A CS configuration and its procedure parameters as `reflector-emu plan` reads them from
/// CONFIG.json: the Create Config fields, the selected times, the ACI and the procedure limits.
public struct PlanConfigFile: Equatable {
    public var configuration: CSConfiguration
    public var antennaConfiguration: AntennaConfiguration
    public var schedule: ProcedureSchedule
    public var leftoverBitPolicy: LeftoverBitPolicy
    /// The host's channel classification (all allowed channels when absent).
    public var classification: ChannelMap

    /// The time values the spec allows for each selectable time, from the firmware's tables.
    static func times(_ kind: TimeKind) -> [Int] { (0..<kind.valueCount).compactMap { kind.microseconds(atIndex: $0).map(Int.init) } }
    static let interludeTimes = times(.tIP1)
    static let frequencyChangeTimes = times(.tFCS)
    static let phaseMeasurementTimes = times(.tPM)
    static let antennaSwitchTimes = AntennaSwitchTime.allCases.map { Int($0.microseconds) }
    static let rttTypeNames = ["aa_only", "sounding_32", "sounding_96", "random_32", "random_64", "random_96", "random_128"]

    /// Reads a configuration from the bytes of its JSON file.
    public static func parse(_ data: Data) throws(ToolError) -> PlanConfigFile {
        try PlanConfigFile(json: JSONValue.parse(data))
    }

    /// Reads and checks the configuration file at `path`; errors name the file.
    public static func read(path: String) throws(ToolError) -> PlanConfigFile {
        try JSONFile.read(path) { (v) throws(ToolError) in try PlanConfigFile(json: v) }
    }

    public init(json: JSONValue) throws(ToolError) {
        let r = try JSONObjectReader(json)
        let mainMode = try r.integer("main_mode", in: 1...3)
        let subMode = try Self.subMode(r, mainMode: mainMode)
        let minSteps = try r.integer("min_main_mode_steps", in: 2...255, default: 2)
        let maxSteps = try r.integer("max_main_mode_steps", in: 2...255, default: max(minSteps, 5))
        if maxSteps < minSteps {
            throw .badKey(key: "max_main_mode_steps", problem: "is \(maxSteps); allowed: at least min_main_mode_steps (\(minSteps))")
        }
        let role: CSRole = try r.choice("role", oneOf: ["initiator", "reflector"], default: "reflector") == "initiator" ? .initiator : .reflector
        let phy: CSSyncPHY
        switch try r.choice("cs_sync_phy", oneOf: ["1M", "2M", "2M2BT"], default: "1M") {
        case "2M": phy = .le2M
        case "2M2BT": phy = .le2M2BT
        default: phy = .le1M
        }
        let map = try Self.channelMap(r, key: "channel_map", default: ChannelMap.allowed.hex)
        classification = try Self.channelMap(r, key: "channel_classification", default: ChannelMap.allowed.hex)
        let filtered = FilteredChannels(map: map, classification: classification)
        if !filtered.isSufficient {
            throw .badKey(key: "channel_map", problem: "leaves \(filtered.count) usable channels; allowed: at least \(FilteredChannels.minimumCount)")
        }
        let selection: ChannelSelectionAlgorithm
        if try r.choice("channel_selection", oneOf: ["3b", "3c"], default: "3b") == "3c" {
            let shape: Ch3cShape = try r.choice("ch3c_shape", oneOf: ["hat", "x"], default: "hat") == "x" ? .x : .hat
            selection = .algorithm3c(shape: shape, jump: UInt8(try r.integer("ch3c_jump", in: 2...8, default: 2)))
        } else {
            selection = .algorithm3b
        }
        let timing = CSTiming(
            tIP1: UInt16(try r.integer("t_ip1_us", oneOf: Self.interludeTimes, default: 145)),
            tIP2: UInt16(try r.integer("t_ip2_us", oneOf: Self.interludeTimes, default: 145)),
            tFCS: UInt16(try r.integer("t_fcs_us", oneOf: Self.frequencyChangeTimes, default: 150)),
            tPM: UInt16(try r.integer("t_pm_us", oneOf: Self.phaseMeasurementTimes, default: 40)),
            tSW: UInt16(try r.integer("t_sw_us", oneOf: Self.antennaSwitchTimes, default: 0)))
        configuration = CSConfiguration(
            configID: UInt8(try r.integer("config_id", in: 0...3, default: 0)),
            mainMode: CSMode(rawValue: UInt8(mainMode))!, subMode: subMode,
            minMainModeSteps: UInt8(minSteps), maxMainModeSteps: UInt8(maxSteps),
            mainModeRepetition: UInt8(try r.integer("main_mode_repetition", in: 0...3, default: 0)),
            mode0Steps: UInt8(try r.integer("mode_0_steps", in: 1...3, default: 3)),
            role: role, rttType: try Self.rttType(r), csSyncPHY: phy, channelMap: map,
            channelMapRepetition: UInt8(try r.integer("channel_map_repetition", in: 1...255, default: 1)),
            channelSelection: selection, inlinePCT: try r.bool("inline_pct", default: false), timing: timing)
        antennaConfiguration = AntennaConfiguration(index: UInt8(try r.integer("aci", in: 0...7, default: 0)))!
        let subeventLength = try r.integer("subevent_len_us", in: 1250...4_000_000, default: 40_000)
        let interval = try r.integer("subevent_interval_us", in: subeventLength...40_959_375, default: subeventLength)
        let maxProcedure = try r.integer("max_procedure_len_us", in: 625...(0xFFFF * 625), default: 1_000_000)
        let minimum = CSConfigurationValidator.minimumSubeventDuration(configuration, timing: timing, antennaPaths: antennaConfiguration.antennaPaths)
        if UInt32(subeventLength) < minimum {
            throw .badKey(key: "subevent_len_us", problem: "is \(subeventLength); allowed: at least \(minimum) (the mode-0 steps and one main-mode step with these times)")
        }
        if maxProcedure < subeventLength {
            throw .badKey(key: "max_procedure_len_us", problem: "is \(maxProcedure); allowed: at least subevent_len_us (\(subeventLength))")
        }
        schedule = ProcedureSchedule(subeventLength: UInt32(subeventLength), subeventInterval: UInt32(interval), maxProcedureLength: UInt32(maxProcedure))
        switch try r.choice("leftover_bits", oneOf: ["regenerate_per_step", "keep_within_subevent", "keep_within_procedure"], default: "regenerate_per_step") {
        case "keep_within_subevent": leftoverBitPolicy = .keepWithinSubevent
        case "keep_within_procedure": leftoverBitPolicy = .keepWithinProcedure
        default: leftoverBitPolicy = .regeneratePerStep
        }
    }

    /// Valid main/sub pairs (NimBLE's config check): mode 1 takes no sub-mode, mode 2 takes 1 or 3, mode 3 takes 2.
    static func subMode(_ r: JSONObjectReader, mainMode: Int) throws(ToolError) -> CSMode? {
        let allowed: [Int]
        switch mainMode {
        case 1: allowed = []
        case 2: allowed = [1, 3]
        default: allowed = [2]
        }
        let text = (allowed.map(String.init) + ["null"]).joined(separator: ", ")
        switch r.optional("sub_mode") {
        case nil, .null?: return nil
        case .number(let n)? where n.integer(as: Int.self).map(allowed.contains) == true: return CSMode(rawValue: n.integer(as: UInt8.self)!)
        case let v?: throw .badKey(key: "sub_mode", problem: "is \(v.brief); allowed with main_mode \(mainMode): \(text)")
        }
    }

    static func rttType(_ r: JSONObjectReader) throws(ToolError) -> RTTType {
        let allowed = "0 to 6 or one of " + rttTypeNames.map { "\"\($0)\"" }.joined(separator: ", ")
        switch r.optional("rtt_type") {
        case nil: return .accessAddressOnly
        case .number(let n)? where n.integer(as: UInt8.self).map { $0 <= 6 } == true: return RTTType(rawValue: n.integer(as: UInt8.self)!)!
        case .string(let s)? where rttTypeNames.contains(s): return RTTType(rawValue: UInt8(rttTypeNames.firstIndex(of: s)!))!
        case let v?: throw .badKey(key: "rtt_type", problem: "is \(v.brief); allowed: \(allowed)")
        }
    }

    static func channelMap(_ r: JSONObjectReader, key: String, default def: String) throws(ToolError) -> ChannelMap {
        let text = try r.hex(key, digits: 20, default: def)
        guard let map = ChannelMap(hex: text) else { throw .badKey(key: key, problem: "is \"\(text)\"; allowed: 20 hexadecimal digits") }
        if map.usesDisallowedChannels {
            let bad = (0..<80).filter { map.contains($0) && !ChannelMap.allowed.contains($0) }
            throw .badKey(key: key, problem: "enables channels \(bad.map(String.init).joined(separator: ", ")), which CS never uses; allowed: channels 2-22 and 26-76 (all allowed: \(ChannelMap.allowed.hex))")
        }
        return map
    }
}
