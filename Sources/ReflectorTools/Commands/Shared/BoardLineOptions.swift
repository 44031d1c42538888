import BLEHost
import ToolJSON

/// The board line's flags, shared by the commands that drive a real board (`check`, `range`,
/// `accessory`): the serial port or pty, its speed and flow control, how long the board may
/// take to answer a command, and a btsnoop capture of the traffic.
public struct BoardLineOptions: Sendable, Equatable {
    public var path: String?
    public var baud = 1_000_000
    public var rtscts = false
    /// Milliseconds the board may take to answer a command.
    public var timeout = 3000
    public var btsnoop: String?
    /// Seconds to wait for a port that went away to come back (nil: the run ends with it).
    public var reconnectPort: Int?
    public init() {}

    /// The rows, for `command`'s messages.
    static func options(_ command: String) -> [Option<BoardLineOptions>] {
        func device(_ o: inout BoardLineOptions, _ path: String) throws(ToolError) {
            guard o.path == nil else { throw .usage("\(command): give one of --port DEVICE and --pty LINK") }
            o.path = path
        }
        return [
            .value("--port", "DEVICE", .text, help: "the board's serial port (a pty path works too)", set: device),
            .value("--pty", "LINK", .text, help: "a pseudo-terminal, for example one 'reflector-emu serve' created", set: device),
            .baud(\.baud, help: "baud rate (default 1000000)"),
            .flag(\.rtscts, "--rtscts", help: "RTS/CTS flow control"),
            .value(\.timeout, "--timeout", "MS", .integer(10...60_000, allowed: "milliseconds from 10 to 60000"),
                   help: "how long the board may take to answer a command (default 3000)"),
            .value(\.btsnoop, "--btsnoop", "FILE", .text, help: "record the HCI traffic (opens in Wireshark and btmon)"),
            .value(\.reconnectPort, "--reconnect-port", "S", .integer(1...86_400, allowed: "seconds from 1 to 86400"),
                   help: "when the port goes away (a board reset or replugged), wait up to S s", "for it to come back and go on (default: exit)"),
        ]
    }

    /// The rows lifted into a command's options at `keyPath`.
    static func options<Outer>(_ command: String, at keyPath: WritableKeyPath<Outer, BoardLineOptions>) -> [Option<Outer>] {
        options(command).map { $0.lifted(keyPath) }
    }

    /// A port is required.
    func validate(_ command: String) throws(ToolError) {
        guard path != nil else { throw .usage("\(command): give --port DEVICE or --pty LINK") }
    }

    /// The line, opened (a `.device` error when the port cannot be, `.badFile` for the capture).
    func open() throws(ToolError) -> BoardLine {
        try BoardLine(path: path ?? "", baud: baud, rtscts: rtscts, capture: btsnoop)
    }

    /// The line opened and the board asked what it is, as `check` asks: a port that cannot open
    /// or a board that does not answer is a `.device` error with the reason (the commands exit 2).
    /// The caller closes the line.
    func openAndProbe() throws(ToolError) -> (line: BoardLine, findings: ControllerProbe.Findings) {
        let line = try open()
        switch BoardProbe.run(line.channel, path: path ?? "", baud: baud, timeout: timeout) {
        case .success(let findings): return (line, findings)
        case .failure(let why):
            line.close()
            throw .device(why.message)
        }
    }

    /// What to say when the board leaves a command unanswered past `timeout`.
    func silence(opcode: UInt16) -> String {
        BoardProbe.silence(path: path ?? "", opcode: opcode, timeout: timeout, baud: baud)
    }
}
