import ToolJSON

/// A command's flags declared once: the defaults, each flag's spellings, value type and help
/// row, the positional arguments, and the checks across flags. `parse` reads arguments with it
/// and `helpRows` prints it, so what `--help` lists is what the command accepts.
///
/// The rules every command shares:
/// - `--help` or `-h` anywhere asks for the help text.
/// - An argument that starts with `-` and is longer than one character is a flag; a flag the
///   table does not know is an error naming the command and its help.
/// - A flag that takes a value takes the next argument, unless that starts with `--` (then the
///   value is missing: `plan --config --json` says "--config needs a value (FILE)").
/// - A value that does not convert says what was wrong and what is allowed:
///   "--baud must be a baud rate from 1200 to 12000000, found '7'".
/// - Any other argument is positional, or, for a command that takes none, an unknown option.
public struct OptionTable<Options> {
    /// The options before any flag is read.
    public var defaults: Options
    public var options: [Option<Options>]
    public var positional: Positional<Options>?
    /// The width of the help rows' left column, after its two-space indent.
    public var helpColumn: Int
    /// Put in front of messages about flag values ("tdoa plan: "); empty for most commands.
    public var messagePrefix: String
    /// Checks across flags once all are read (required flags, flags that exclude each other).
    public var validate: (inout Options) throws(ToolError) -> Void

    public init(defaults: Options, options: [Option<Options>], positional: Positional<Options>? = nil, helpColumn: Int,
                messagePrefix: String = "", validate: @escaping (inout Options) throws(ToolError) -> Void = { _ throws(ToolError) in }) {
        self.defaults = defaults
        self.options = options
        self.positional = positional
        self.helpColumn = helpColumn
        self.messagePrefix = messagePrefix
        self.validate = validate
    }

    /// Whether `arguments` ask for the help text.
    public static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.contains("--help") || arguments.contains("-h")
    }

    /// Reads `arguments` for the command `command` (its name as typed: "tdoa plan").
    public func parse(_ arguments: [String], command: String) throws(ToolError) -> Options {
        var byName: [String: Int] = [:]
        for (i, o) in options.enumerated() { for n in o.names { byName[n] = i } }
        var o = defaults
        var queue = arguments
        var index = 0
        func unknown(_ a: String) -> ToolError { .usage("\(command): unknown option '\(a)' (see reflector-emu \(command) --help)") }
        while index < queue.count {
            let a = queue[index]
            index += 1
            guard a.hasPrefix("-") && a.count > 1 else {
                guard let positional else { throw unknown(a) }
                try positional.set(&o, a)
                continue
            }
            guard let k = byName[a] else { throw unknown(a) }
            let option = options[k]
            var value: String?
            if option.takesValue {
                guard index < queue.count, !queue[index].hasPrefix("--") else {
                    throw .usage("\(messagePrefix)\(a) needs a value (\(option.valueDescription ?? "a value"))")
                }
                value = queue[index]
                index += 1
            }
            switch option.action {
            case .flag(let set):
                try set(&o, a)
            case .value(_, let set):
                do {
                    try set(&o, value!)
                } catch {
                    switch error {
                    case .notAllowed(let allowed): throw .usage("\(messagePrefix)\(a) must be \(allowed), found '\(value!)'")
                    case .error(let e): throw e
                    }
                }
            case .expansion(_, let expand):
                queue.insert(contentsOf: try expand(value!), at: index)
            }
        }
        try validate(&o)
        return o
    }

    /// The help text's option rows: `  LABEL  first line` and the next lines under it.
    public var helpRows: String {
        var out = ""
        let indent = String(repeating: " ", count: helpColumn)
        for option in options {
            guard let label = option.label else { continue }
            var lines = option.help
            if lines.isEmpty { lines = [""] }
            if label.count < helpColumn {
                out += "  " + label + String(repeating: " ", count: helpColumn - label.count) + lines[0] + "\n"
            } else {
                out += "  " + label + "\n" + "  " + indent + lines[0] + "\n"
            }
            for line in lines.dropFirst() { out += "  " + indent + line + "\n" }
        }
        return out
    }
}
