import Foundation

/// The whole tool from a table of commands: the list of commands (from their summaries),
/// dispatch to a command and its subcommands, and the exit statuses.
public struct CommandLineTool {
    public let name: String
    public let commands: [any Command.Type]
    /// The width of the command list's name column, after its two-space indent.
    public var nameColumn = 11

    public init(name: String, commands: [any Command.Type]) {
        self.name = name
        self.commands = commands
    }

    /// `usage: ...`, the commands with their summaries, and where to find each one's options.
    public var usage: String {
        var out = "usage: \(name) <command> [options]\n\ncommands:\n"
        let indent = String(repeating: " ", count: nameColumn)
        for c in commands {
            let lines = c.summary
            out += "  " + c.name.padding(toLength: nameColumn, withPad: " ", startingAt: 0) + (lines.first ?? "") + "\n"
            for line in lines.dropFirst() { out += "  " + indent + line + "\n" }
        }
        return out + "\nRun '\(name) <command> --help' for a command's options.\n"
    }

    /// Runs the command `arguments` name and returns the exit status: 0 success, 2 a bad
    /// argument, file or command, otherwise the command's own (1 for a failed device or check).
    /// Without arguments: the usage and status 2; `help`, `--help`, `-h`: the usage and 0.
    public func main(_ arguments: [String], output: CommandOutput = .standardOutput(),
                     errors: (String) -> Void = CommandLineTool.standardError) -> Int32 {
        guard let first = arguments.first else {
            output.write(usage)
            output.flush()
            return 2
        }
        if ["help", "--help", "-h"].contains(first) {
            output.write(usage)
            output.flush()
            return 0
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            errors("\(name): unknown command '\(first)'; commands: \(commands.map { $0.name }.joined(separator: ", ")) (see --help)")
            return 2
        }
        return execute(command, Array(arguments.dropFirst()), output: output, errors: errors)
    }

    func execute(_ command: any Command.Type, _ arguments: [String], output: CommandOutput, errors: (String) -> Void) -> Int32 {
        if let word = arguments.first, let sub = command.subcommands.first(where: { $0.name.split(separator: " ").last.map(String.init) == word }) {
            return execute(sub, Array(arguments.dropFirst()), output: output, errors: errors)
        }
        return run(command, arguments, output: output, errors: errors)
    }

    func run<C: Command>(_ command: C.Type, _ arguments: [String], output: CommandOutput, errors: (String) -> Void) -> Int32 {
        do {
            guard let options = try C.parse(arguments) else {
                output.write(C.helpText)
                output.flush()
                return 0
            }
            let outcome = try C.run(options, output: output)
            output.flush()
            if let message = outcome.message { errors("\(name): \(message)") }
            return outcome.status
        } catch {
            output.flush()
            errors("\(name): \(error.description)")
            return 2
        }
    }

    /// Writes one line to standard error.
    public static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
