import Foundation
import ReflectorFirmware
import ToolJSON

/// A board profile from `Hardware/boards/*.json`: which antennas a board has, how its RF switch
/// selects them, its antenna switch time and Bluetooth version, and so the capabilities the
/// reflector firmware reports on it.
public struct BoardProfile: Equatable {
    public var name: String
    public var description: String
    public var antennas: Int
    /// GPIO mask and one pattern per antenna; nil for a single antenna without a switch.
    public var switchMask: UInt32?
    public var switchPatterns: [UInt32]
    public var settleMicroseconds: Int
    public var antennaSwitchTime: AntennaSwitchTime
    /// The HCI_Version the controller reports (0x11 for 6.3, 0x0E for 6.0).
    public var bluetoothVersion: UInt8
    public var maxTxPowerDBm: Int
    /// How the host reaches the board's HCI UART; nil for boards without one (the emulator).
    public var serial: BoardSerialSettings?
    /// The antenna configuration indices (ACI 0–7) the board supports as a reflector.
    public var antennaConfigurations: [UInt8]
    /// How to build and flash the board's HCI UART controller firmware with CS, if it has one.
    public var firmware: BoardFirmwareRecipe?
    /// The board's calibration (`BoardCalibrationFile`): its antenna paths' delays and RTT
    /// offset, applied by `--calibration PROFILE`; nil when the profile has none.
    public var calibration: BoardCalibrationFile?

    static let versions: [String: UInt8] = ["5.4": 0x0D, "6.0": 0x0E, "6.1": 0x0F, "6.2": 0x10, "6.3": 0x11]

    /// Reads a profile from the bytes of its JSON file.
    public static func parse(_ data: Data) throws(ToolError) -> BoardProfile {
        try BoardProfile(json: JSONValue.parse(data))
    }

    /// Reads and checks the profile file at `path`; errors name the file.
    public static func read(path: String) throws(ToolError) -> BoardProfile {
        try JSONFile.read(path) { (v) throws(ToolError) in try BoardProfile(json: v) }
    }

    public init(json: JSONValue) throws(ToolError) {
        let r = try JSONObjectReader(json)
        guard case .string(let n)? = r.optional("name"), !n.isEmpty else { throw .badKey(key: "name", problem: "is missing; allowed: a non-empty string") }
        name = n
        if case .string(let d)? = r.optional("description") { description = d } else { description = "" }
        antennas = try r.integer("antennas", in: 1...4)
        antennaConfigurations = try Self.antennaConfigurations(r, antennas: antennas)
        let version = try r.choice("bluetooth_version", oneOf: Self.versions.keys.sorted())
        bluetoothVersion = Self.versions[version]!
        let tsw = try r.integer("t_sw_us", oneOf: AntennaSwitchTime.allCases.map { Int($0.microseconds) }, default: 0)
        antennaSwitchTime = AntennaSwitchTime(rawValue: UInt8(tsw))!
        maxTxPowerDBm = try r.integer("max_tx_power_dbm", in: -127...20, default: 0)
        switch r.optional("hci_firmware") {
        case nil, .null?: firmware = nil
        case let v?: firmware = try BoardFirmwareRecipe(json: v)
        }
        switch r.optional("calibration") {
        case nil, .null?: calibration = nil
        case let v?: calibration = try BoardCalibrationFile(json: v, keyPath: "calibration.")
        }
        switch r.optional("serial") {
        case nil, .null?: serial = nil
        case let v?:
            guard case .object = v else { throw .badKey(key: "serial", problem: "is \(v.brief); allowed: an object with usb_vid, usb_pid, baud, flow_control, or null") }
            serial = try BoardSerialSettings(json: v)
        }
        switch r.optional("antenna_switch") {
        case nil, .null?:
            guard antennas == 1 else { throw .badKey(key: "antenna_switch", problem: "is missing; allowed: an object with gpio_mask and \(antennas) patterns (the board has \(antennas) antennas)") }
            switchMask = nil
            switchPatterns = []
            settleMicroseconds = 0
        case let v?:
            let s = try JSONObjectReader(v)
            let mask = try Self.word(s, "antenna_switch.gpio_mask", s.hex("gpio_mask", digits: 8))
            guard case .array(let items)? = s.optional("patterns"), items.count == antennas else {
                throw .badKey(key: "antenna_switch.patterns", problem: "must list one 8-hex-digit pattern per antenna (\(antennas))")
            }
            var patterns: [UInt32] = []
            for (k, item) in items.enumerated() {
                guard case .string(let text) = item, text.utf8.count == 8, text.utf8.allSatisfy(JSONObjectReader.isASCIIHexDigit),
                      let p = UInt32(text, radix: 16) else {
                    throw .badKey(key: "antenna_switch.patterns[\(k)]", problem: "is \(item.brief); allowed: 8 hexadecimal digits")
                }
                guard p & ~mask == 0 else { throw .badKey(key: "antenna_switch.patterns[\(k)]", problem: "sets pins outside gpio_mask") }
                patterns.append(p)
            }
            guard Set(patterns).count == patterns.count else { throw .badKey(key: "antenna_switch.patterns", problem: "must differ from each other") }
            settleMicroseconds = try s.integer("settle_us", in: 0...10, default: 0)
            if antennas > 1 && settleMicroseconds > Int(antennaSwitchTime.microseconds) {
                throw .badKey(key: "t_sw_us", problem: "is \(tsw); allowed: at least antenna_switch.settle_us (\(settleMicroseconds))")
            }
            switchMask = mask
            switchPatterns = patterns
        }
    }

    private static func word(_ r: JSONObjectReader, _ key: String, _ text: @autoclosure () throws(ToolError) -> String) throws(ToolError) -> UInt32 {
        let t = try text()
        guard let v = UInt32(t, radix: 16) else { throw .badKey(key: key, problem: "is \"\(t)\"; allowed: 8 hexadecimal digits") }
        return v
    }

    /// `antenna_configurations`: ACIs whose reflector side needs no more antennas than the board
    /// has. Absent: every ACI the board's antennas allow.
    static func antennaConfigurations(_ r: JSONObjectReader, antennas: Int) throws(ToolError) -> [UInt8] {
        let possible = (0...7).map { UInt8($0) }.filter { AntennaConfiguration(index: $0)!.reflectorAntennas <= antennas }
        guard let v = r.optional("antenna_configurations") else { return possible }
        guard case .array(let items) = v, !items.isEmpty else {
            throw .badKey(key: "antenna_configurations", problem: "is \(v.brief); allowed: a non-empty list of ACIs from \(possible.map(String.init).joined(separator: ", "))")
        }
        var out: [UInt8] = []
        for item in items {
            guard case .number(let n) = item, let aci = n.integer(as: UInt8.self), possible.contains(aci) else {
                throw .badKey(key: "antenna_configurations", problem: "holds \(item.brief); allowed with \(antennas) antenna\(antennas == 1 ? "" : "s"): \(possible.map(String.init).joined(separator: ", "))")
            }
            out.append(aci)
        }
        return out
    }

    /// The capabilities the reflector firmware reports on this board.
    public var capabilities: CSCapabilities {
        var c = CSCapabilities.projectReflector(antennas: antennas)
        c.tSW = antennaSwitchTime
        c.tSWIPT = antennaSwitchTime
        return c
    }

    /// The board's antenna switch on a GPIO port.
    public func antennaSwitch<Port: GPIOPort>(port: Port) -> GPIOAntennaSwitch<Port> {
        GPIOAntennaSwitch(port: port, mask: switchMask ?? 0, patterns: switchPatterns.isEmpty ? [0] : switchPatterns)
    }
}
