import Foundation
import SerialTransport
import Testing
@testable import ReflectorTools
@testable import ToolJSON
@testable import ToolFiles

/// `reflector-emu ports`: the real listing on this machine (maybe empty), and the report with
/// made-up ports matched against the shipped board profiles.
struct PortsCommandTests {
    static let boards = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Hardware/boards").standardized.path

    /// Runs `ports` with `listPorts` in place of the machine's ports.
    static func run(_ args: [String], listPorts: @escaping () throws(SerialError) -> [SerialPortInfo]) throws(ToolError) -> String {
        guard var o = try PortsCommand.parse(args) else { return PortsCommand.helpText }
        o.listPorts = listPorts
        let output = CommandOutput.memory()
        _ = try PortsCommand.run(o, output: output)
        return output.text
    }

    @Test func runsOnThisMachine() throws {
        let out = try PortsCommand.run(["--boards", Self.boards]).output
        if out == PortsReport.noPortsLine + "\n" { return }
        let lines = out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("PORT") == true)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("/dev/") })
    }

    @Test func jsonParsesOnThisMachine() throws {
        let out = try PortsCommand.run(["--json", "--boards", Self.boards]).output
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let ports = try #require(object["ports"] as? [[String: Any]])
        for p in ports { #expect((p["path"] as? String)?.hasPrefix("/dev/") == true) }
    }

    static let fakePorts = [
        SerialPortInfo(path: "/dev/ttyACM0", description: "J-Link - CDC", transport: .usb, usbVendorID: 0x1366, usbProductID: 0x1068,
                       manufacturer: "SEGGER", product: "J-Link", serialNumber: "001057712345"),
        SerialPortInfo(path: "/dev/ttyUSB0", description: "CP2102 USB to UART", transport: .usb, usbVendorID: 0x10C4, usbProductID: 0xEA60),
        SerialPortInfo(path: "/dev/ttyS0", description: "ttyS0"),
    ]

    @Test func theTableNamesMatchingBoards() throws {
        let out = try Self.run(["--boards", Self.boards], listPorts: { Self.fakePorts })
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("/dev/ttyACM0"))
        #expect(lines[1].contains("1366:1068") && lines[1].contains("001057712345"))
        #expect(lines[1].contains("nrf54l15dk, nrf54l15dk-4ant-example"))
        #expect(lines[1].contains("J-Link - CDC (SEGGER)"))
        #expect(lines[2].contains("10c4:ea60") && !lines[2].contains("nrf"))
        #expect(lines[3].hasPrefix("/dev/ttyS0") && lines[3].contains(" - "))
    }

    @Test func theJSONCarriesIDsAndBoards() throws {
        let out = try Self.run(["--json", "--boards", Self.boards], listPorts: { Self.fakePorts })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let ports = try #require(object["ports"] as? [[String: Any]])
        #expect(ports.count == 3)
        #expect(ports[0]["usb_vid"] as? String == "1366" && ports[0]["usb_pid"] as? String == "1068")
        #expect(ports[0]["boards"] as? [String] == ["nrf54l15dk", "nrf54l15dk-4ant-example"])
        #expect(ports[0]["serial_number"] as? String == "001057712345")
        #expect(ports[2]["usb_vid"] is NSNull && ports[2]["transport"] as? String == "native")
    }

    @Test func noPortsIsAFriendlyLine() throws {
        #expect(try Self.run([], listPorts: { [] }) == PortsReport.noPortsLine + "\n")
        #expect(try Self.run(["--json"], listPorts: { [] }) == "{\"ports\":[]}\n")
    }

    @Test func aProductIDInTheProfileMustMatchToo() {
        let settings = BoardSerialSettings(usbVendorID: 0x1366, usbProductID: 0x1068)
        #expect(settings.matches(vendorID: 0x1366, productID: 0x1068))
        #expect(!settings.matches(vendorID: 0x1366, productID: 0x1051))
        #expect(BoardSerialSettings(usbVendorID: 0x1366).matches(vendorID: 0x1366, productID: 0x1051))
        #expect(!BoardSerialSettings().matches(vendorID: 0x1366, productID: nil))
    }

    @Test func listingFailuresAndBadOptionsAreOneLineErrors() {
        #expect(throws: ToolError.device("cannot list serial ports: list failed: boom")) {
            try Self.run([], listPorts: { () throws(SerialError) in throw .system(operation: "list", detail: "boom") })
        }
        #expect(throws: ToolError.usage("ports: unknown option '--nope' (see reflector-emu ports --help)")) { try PortsCommand.run(["--nope"]).output }
    }

    @Test func profilesReadTheirSerialSettings() throws {
        let dk = try BoardProfile.read(path: Self.boards + "/nrf54l15dk.json")
        #expect(dk.serial == BoardSerialSettings(usbVendorID: 0x1366, baudRate: 1_000_000, flowControl: .rtsCts))
        #expect(try BoardProfile.read(path: Self.boards + "/emulated-reflector.json").serial == nil)
        let bad = "{\"name\": \"x\", \"antennas\": 1, \"bluetooth_version\": \"6.3\", \"serial\": {\"usb_vid\": \"13666\"}}"
        #expect(throws: ToolError.self) { try BoardProfile(json: JSONValue.parse(Data(bad.utf8))) }
        do {
            _ = try BoardProfile(json: JSONValue.parse(Data(bad.utf8)))
        } catch {
            #expect(error.description.contains("serial.usb_vid"))
        }
    }
}
