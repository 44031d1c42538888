import ToolJSON

/// A subcommand of `reflector-emu`: its name, its help, its option table and what it does.
/// The tool's `main` is a table of these; the help texts, the parsing, the error messages and
/// the exit statuses all come from here, so every command behaves alike:
///
/// - `--help` prints the help generated from `help` and `options` (exit status 0);
/// - a bad argument, a bad file or anything else thrown as `ToolError` prints one line,
///   `reflector-emu: MESSAGE`, on stderr (exit status 2);
/// - otherwise the command's `CommandOutcome` gives the status, and a line for stderr if any.
public protocol Command {
    associatedtype Options
    /// The name as typed after `reflector-emu` ("loopback", "tdoa plan").
    static var name: String { get }
    /// The command's lines in the tool's list of commands.
    static var summary: [String] { get }
    static var help: HelpText { get }
    static var options: OptionTable<Options> { get }
    /// Commands reached through this one ("tdoa plan" through "tdoa").
    static var subcommands: [any Command.Type] { get }
    /// Does the work, writing to `output`. Throws a `ToolError` for bad input (status 2).
    static func run(_ options: Options, output: CommandOutput) throws(ToolError) -> CommandOutcome
}

extension Command {
    public static var subcommands: [any Command.Type] { [] }

    /// The full help text: usage, description, the option rows, the closing notes.
    public static var helpText: String { help.render(options: options.helpRows) }

    /// The options `arguments` give, or nil when they ask for the help text.
    public static func parse(_ arguments: [String]) throws(ToolError) -> Options? {
        if OptionTable<Options>.asksForHelp(arguments) { return nil }
        return try options.parse(arguments, command: name)
    }

    /// Runs the command on `arguments` with its output kept in memory (for tests and tools
    /// that call commands in process). Throws what the command throws.
    public static func run(_ arguments: [String]) throws(ToolError) -> CommandRun {
        guard let options = try parse(arguments) else { return CommandRun(output: helpText, status: 0, message: nil) }
        let output = CommandOutput.memory()
        let outcome = try run(options, output: output)
        return CommandRun(output: output.text, status: outcome.status, message: outcome.message)
    }
}

/// How a command's run ended (when it did not throw).
public struct CommandOutcome: Equatable, Sendable {
    public var status: Int32
    /// One line for stderr, without the tool's name.
    public var message: String?

    public init(status: Int32, message: String? = nil) {
        self.status = status
        self.message = message
    }

    public static let success = CommandOutcome(status: 0)

    /// The command ran but did not succeed (a device that failed, a check that did not pass).
    public static func failure(status: Int32, _ message: String?) -> CommandOutcome { CommandOutcome(status: status, message: message) }
}

/// A command run in process: what it printed and how it ended.
public struct CommandRun: Equatable, Sendable {
    public var output: String
    public var status: Int32
    public var message: String?

    /// The output's lines (without the last newline).
    public var lines: [String] {
        var lines = output.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// A command's help around its option rows: `usage` (one line or more), the description,
/// then the rows, then the closing notes if any. Every help text ends with an empty line.
public struct HelpText: Sendable {
    public var usage: String
    public var about: String
    public var notes: String?

    public init(usage: String, about: String, notes: String? = nil) {
        self.usage = usage
        self.about = about
        self.notes = notes
    }

    func render(options rows: String) -> String {
        usage + "\n\n" + about + "\n\n" + rows + (notes.map { "\n" + $0 + "\n" } ?? "") + "\n"
    }
}
