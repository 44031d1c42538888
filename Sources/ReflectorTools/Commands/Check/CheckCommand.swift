import BLEHost
import Foundation
import HCITransport
import ReflectorFirmware
import SerialTransport

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
        public var path: String?
        public var baud = 1_000_000
        public var rtscts = false
        public var json = false
        public var timeout = 3000
        public var capture: String?
        public init() {}
    }

    public static var options: OptionTable<Options> {
        func device(_ o: inout Options, _ path: String) throws(ToolError) {
            guard o.path == nil else { throw .usage("check: give one of --port DEVICE and --pty LINK") }
            o.path = path
        }
        return OptionTable(defaults: Options(), options: [
            .value("--port", "DEVICE", .text, help: "a serial port (a pty path works too)", set: device),
            .value("--pty", "LINK", .text, help: "a pseudo-terminal, for example one 'reflector-emu serve' created", set: device),
            .baud(\.baud, help: "baud rate (default 1000000)"),
            .flag(\.rtscts, "--rtscts", help: "RTS/CTS flow control"),
            .json(\.json, help: "{\"controller\": {...}, \"requirements\": [...], \"compatible\": ...}"),
            .value(\.timeout, "--timeout", "MS", .integer(10...60_000, allowed: "milliseconds from 10 to 60000"),
                   help: "how long to wait for each answer (default 3000)"),
            .value(\.capture, "--btsnoop", "FILE", .text, help: "record the exchange"),
        ], helpColumn: 18, validate: { o throws(ToolError) in
            guard o.path != nil else { throw .usage("check: give --port DEVICE or --pty LINK") }
        })
    }

    /// Exit status 0 compatible, 1 not compatible, 2 (with the reason) could not ask.
    public static func run(_ o: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome {
        let path = o.path!, baud = o.baud, timeout = o.timeout, json = o.json, capture = o.capture, rtscts = o.rtscts
        let line: BoardLine
        do { line = try BoardLine(path: path, baud: baud, rtscts: rtscts, capture: capture) } catch .device(let why) { return .failure(status: 2, why) }
        defer { line.close() }
        let channel = line.channel

        let findings: ControllerProbe.Findings
        switch BoardProbe.run(channel, path: path, baud: baud, timeout: timeout) {
        case .success(let f): findings = f
        case .failure(let why): return .failure(status: 2, why.message)
        }
        let report = CheckReport(findings)
        if json {
            output.jsonLine { report.json(&$0) }
        } else {
            output.write(report.text)
        }
        return CommandOutcome(status: report.compatible ? 0 : 1)
    }
}
