import Foundation
import Testing
@testable import ReflectorFirmware
@testable import ToolJSON
@testable import ToolFiles

/// The shipped board profiles and the antenna switch they describe.
struct BoardProfileTests {
    static let boards = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Hardware/boards")

    static func load(_ name: String) throws -> BoardProfile {
        try BoardProfile(json: JSONValue.parse(Data(contentsOf: boards.appendingPathComponent(name))))
    }

    struct RecordingPort: GPIOPort {
        var writes: [(UInt32, UInt32, UInt64)] = []
        mutating func write(pattern: UInt32, mask: UInt32, at time: UInt64) { writes.append((pattern, mask, time)) }
    }

    /// Every shipped board parses, and the firmware's capabilities on it meet iOS's requirements.
    @Test func everyShippedBoardParsesAndIsIOSCompliant() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.boards.path).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 3)
        for f in files {
            let board = try Self.load(f)
            #expect(board.name + ".json" == f)
            let report = IOSComplianceReport(capabilities: board.capabilities, bluetoothVersion: board.bluetoothVersion)
            #expect(report.isCompliant, "\(f): \(report.unmet)")
            #expect(board.capabilities.numAntennas == UInt8(board.antennas))
            #expect(board.switchPatterns.count == (board.antennas > 1 ? board.antennas : board.switchPatterns.count))
        }
    }

    /// The four-antenna example drives its one-hot pins in the order a step's permutation gives.
    @Test func fourAntennaSwitchFollowsThePermutation() throws {
        let board = try Self.load("nrf54l15dk-4ant-example.json")
        #expect(board.antennas == 4 && board.antennaSwitchTime == .us10)
        var sw = board.antennaSwitch(port: RecordingPort())
        for slot in 0...4 {
            let path = AntennaPermutation.path(antennaPaths: 4, index: 13, slot: slot)!  // A4 A1 A3 A2 (A2)
            sw.select(antenna: AntennaPath(index: path, configuration: AntennaConfiguration(index: 6)!).reflectorAntenna, at: UInt64(20 * slot))
        }
        #expect(sw.port.writes.map(\.0) == [0x4000, 0x0800, 0x2000, 0x1000])  // the extension slot keeps A2: no write
        #expect(sw.port.writes.allSatisfy { $0.1 == 0x7800 })
        sw.select(antenna: 9, at: 200)
        #expect(sw.invalidRequests == 1 && sw.current == 1)
    }

    @Test(arguments: [
        ("{\"name\": \"x\", \"antennas\": 2, \"bluetooth_version\": \"6.3\"}", "key \"antenna_switch\" is missing"),
        ("{\"name\": \"x\", \"antennas\": 5, \"bluetooth_version\": \"6.3\"}", "key \"antennas\" is 5; allowed: an integer from 1 to 4"),
        ("{\"name\": \"x\", \"antennas\": 1, \"bluetooth_version\": \"7.0\"}", "key \"bluetooth_version\" is \"7.0\""),
        ("{\"name\": \"x\", \"antennas\": 2, \"bluetooth_version\": \"6.3\", \"t_sw_us\": 10, \"antenna_switch\": {\"gpio_mask\": \"00000003\", \"patterns\": [\"00000001\", \"00000004\"]}}", "key \"antenna_switch.patterns[1]\" sets pins outside gpio_mask"),
        ("{\"name\": \"x\", \"antennas\": 2, \"bluetooth_version\": \"6.3\", \"t_sw_us\": 1, \"antenna_switch\": {\"gpio_mask\": \"00000003\", \"patterns\": [\"00000001\", \"00000002\"], \"settle_us\": 2}}", "key \"t_sw_us\" is 1; allowed: at least antenna_switch.settle_us (2)"),
    ])
    func badProfiles(text: String, message: String) {
        do {
            _ = try BoardProfile(json: JSONValue.parse(Data(text.utf8)))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    /// A 6.0 board fails the iOS check for its version.
    @Test func bluetooth60BoardIsNotCompliant() throws {
        let board = try BoardProfile(json: JSONValue.parse(Data("{\"name\": \"old\", \"antennas\": 1, \"bluetooth_version\": \"6.0\"}".utf8)))
        let report = IOSComplianceReport(capabilities: board.capabilities, bluetoothVersion: board.bluetoothVersion)
        #expect(!report.isCompliant && report.unmet == [.bluetooth63])
    }
}

extension BoardProfileTests {
    /// The nRF54L15 DK profile says how to build its HCI UART controller with CS, as data.
    @Test func firmwareRecipeAndAntennaConfigurations() throws {
        let dk = try Self.load("nrf54l15dk.json")
        let recipe = try #require(dk.firmware)
        #expect(recipe.kconfig == ["CONFIG_BT_CTLR_CHANNEL_SOUNDING=y"])
        #expect(recipe.build.hasPrefix("west build -b nrf54l15dk/nrf54l15/cpuapp"))
        #expect(dk.antennaConfigurations == [0, 1, 2, 3])
        #expect(try Self.load("nrf54l15dk-4ant-example.json").antennaConfigurations == Array(0...7))
        let bad = "{\"name\": \"x\", \"antennas\": 1, \"bluetooth_version\": \"6.3\", \"antenna_configurations\": [4]}"
        #expect(throws: ToolError.self) { try BoardProfile(json: JSONValue.parse(Data(bad.utf8))) }
        do {
            _ = try BoardProfile(json: JSONValue.parse(Data(bad.utf8)))
        } catch {
            #expect(error.description == "key \"antenna_configurations\" holds 4; allowed with 1 antenna: 0, 1, 2, 3")
        }
    }
}
