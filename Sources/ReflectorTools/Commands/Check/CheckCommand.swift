import BLEHost
import Foundation
import HCITransport
import ReflectorFirmware
import SerialTransport
import ToolJSON

/// `reflector-emu check`: asks the controller on a serial port or pty whether an iPhone will
/// range with it. Exit status 0 compatible, 1 not compatible, 2 could not ask.
public enum CheckCommand: Command {
    public static let name = "check"
    public static let summary = ["ask the controller on a serial port whether an iPhone will range with it"]

    public static let help = HelpText(
        usage: """
            usage: reflector-emu check (--port DEVICE | --pty LINK) [--baud N] [--rtscts] [--json]
                                       [--timeout MS] [--btsnoop FILE]
            """,
        about: """
            Resets the controller on the other end, reads its version, supported commands, LE
            features and CS capabilities (the Core 6.3 v2 form when listed), and reports each of
            iOS's accessory requirements as pass or fail with the evidence.
            Exit status: 0 compatible, 1 not compatible, 2 could not ask.
            """)

    public struct Options {
        public var board = BoardLineOptions()
        public var json = false
        public init() {}
    }

    public static var options: OptionTable<Options> {
        OptionTable(defaults: Options(), options: BoardLineOptions.options(name, at: \.board) + [
            .json(\.json, help: "{\"controller\": {...}, \"requirements\": [...], \"compatible\": ...}"),
        ], helpColumn: 18, validate: { o throws(ToolError) in try o.board.validate(name) })
    }

    /// Exit status 0 compatible, 1 not compatible, 2 (with the reason) could not ask.
    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        let (line, findings): (BoardLine, ControllerProbe.Findings)
        do { (line, findings) = try o.board.openAndProbe() } catch .device(let why) { return .failure(status: 2, why) }
        defer { line.close() }
        let report = CheckReport(findings)
        if o.json {
            output.jsonLine { report.json(&$0) }
        } else {
            output.write(report.text)
        }
        return CommandOutcome(status: report.compatible ? 0 : 1)
    }
}
