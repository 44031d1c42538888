import Foundation
import SerialTransport

/// `reflector-emu ports`: lists serial ports with their USB IDs and the board profile each
/// matches. Argument parsing and file reading around `PortsReport`.
public enum PortsCommand {
    public static let help = """
        usage: reflector-emu ports [--json] [--boards DIR]

        Lists the serial ports of this machine (USB VID:PID, serial number, description) and
        names the board profile whose serial.usb_vid (and usb_pid, if given) matches each.
        Pseudo-terminals of virtual boards are not listed.

          --json         one JSON object: {"ports": [...]}
          --boards DIR   board profiles to match (default: Hardware/boards found above the
                         current directory or the executable)

        """

    /// Runs the command and returns what it prints. `listPorts` is injectable for tests.
    public static func run(
        _ args: [String],
        listPorts: () throws(SerialError) -> [SerialPortInfo] = SerialPortInfo.list
    ) throws(ToolError) -> String {
        var json = false
        var boardsDirectory: String?
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--json": json = true
            case "--boards":
                i += 1
                guard i < args.count else { throw .usage("--boards needs a directory") }
                boardsDirectory = args[i]
            case "-h", "--help": return help
            default: throw .usage("ports: unknown option '\(args[i])' (see reflector-emu ports --help)")
            }
            i += 1
        }
        let ports: [SerialPortInfo]
        do {
            ports = try listPorts()
        } catch {
            throw .device("cannot list serial ports: \(error.description)")
        }
        let directory = boardsDirectory ?? findBoardsDirectory()
        let boards = try directory.map { (d) throws(ToolError) in try loadBoards(d) } ?? []
        let report = PortsReport(ports: ports, boards: boards)
        if json { return report.json + "\n" }
        var out = report.table
        if directory == nil, !ports.isEmpty {
            out += "(no board profiles found to match against; pass --boards DIR)\n"
        }
        return out
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
            boards.append(try PlanCommand.load((directory as NSString).appendingPathComponent(file)) { (v) throws(ToolError) in try BoardProfile(json: v) })
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
