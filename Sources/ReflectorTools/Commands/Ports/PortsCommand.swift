import Foundation
import SerialTransport
import ToolFiles
import ToolJSON

/// `reflector-emu ports`: lists serial ports with their USB IDs and the board profile each
/// matches. Argument parsing and file reading around `PortsReport`.
public enum PortsCommand: Command {
    public static let name = "ports"
    public static let summary = ["list serial ports with USB IDs and the board profile each matches"]

    public static let help = HelpText(
        usage: "usage: reflector-emu ports [--json] [--boards DIR]",
        about: """
            Lists the serial ports of this machine (USB VID:PID, serial number, description) and
            names the board profile whose serial.usb_vid (and usb_pid, if given) matches each.
            Pseudo-terminals of virtual boards are not listed.
            """)

    public struct Options {
        public var json = false
        public var boardsDirectory: String?
        /// Lists the machine's ports; tests put made-up ports here.
        public var listPorts: () throws(SerialError) -> [SerialPortInfo] = SerialPortInfo.list
        public init() {}
    }

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: [
            .json(\.json, help: "one JSON object: {\"ports\": [...]}"),
            .value(\.boardsDirectory, "--boards", "DIR", .text, help: "board profiles to match (default: Hardware/boards found above the",
                   "current directory or the executable)"),
        ], helpColumn: 15)
    }

    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        let ports: [SerialPortInfo]
        do {
            ports = try o.listPorts()
        } catch {
            throw .device("cannot list serial ports: \(error.description)")
        }
        let directory = o.boardsDirectory ?? findBoardsDirectory()
        let boards = try directory.map { (d) throws(ToolError) in try loadBoards(d) } ?? []
        let report = PortsReport(ports: ports, boards: boards)
        if o.json {
            output.jsonLine(style: .compact) { report.json(&$0) }
            return .success
        }
        output.write(report.table)
        if directory == nil, !ports.isEmpty {
            output.write("(no board profiles found to match against; pass --boards DIR)\n")
        }
        return .success
    }

    /// Every `*.json` profile in `directory`, sorted by file name; errors name the file.
    static func loadBoards(_ directory: String) throws(ToolError) -> [BoardProfile] {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw .badFile("\(directory): cannot list board profiles")
        }
        var boards: [BoardProfile] = []
        for file in files {
            boards.append(try JSONFile.read((directory as NSString).appendingPathComponent(file)) { (v) throws(ToolError) in try BoardProfile(json: v) })
        }
        return boards
    }

    /// `Hardware/boards` in the current directory or one above it, else beside or above the
    /// executable (a checkout running `.build/debug/reflector-emu`).
    static func findBoardsDirectory() -> String? {
        let fm = FileManager.default
        var starts = [URL(fileURLWithPath: fm.currentDirectoryPath)]
        if let executable = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for start in starts {
            var dir = start.standardizedFileURL
            while true {
                let candidate = dir.appendingPathComponent("Hardware/boards")
                var isDirectory: ObjCBool = false
                if fm.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue { return candidate.path }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return nil
    }
}
