import ToolJSON

/// One row of a command's option table: the spellings of a flag, its row in the help text,
/// and what it does to the command's options. The table drives both the parsing and the help,
/// so the two cannot drift apart.
public struct Option<Options> {
    /// What a flag does when it is met.
    public enum Action {
        /// Takes no value.
        case flag((inout Options, _ spelling: String) throws(ToolError) -> Void)
        /// Takes the next argument as its value; a value that is missing or does not convert
        /// is reported with `allowed`.
        case value(allowed: String, (inout Options, _ text: String) throws(OptionFailure) -> Void)
        /// Takes the next argument and stands for the arguments it returns, parsed in its place
        /// (`--scenario FILE`).
        case expansion(metavar: String, (_ text: String) throws(ToolError) -> [String])
    }

    /// Every spelling the flag answers to ("--ipt", "--ras").
    public var names: [String]
    /// The help row's left column ("--distance M", "--ipt | --ras"); nil: no row of its own.
    public var label: String?
    /// The help row's text, one element per line.
    public var help: [String]
    public var action: Action

    public init(names: [String], label: String?, help: [String], action: Action) {
        self.names = names
        self.label = label
        self.help = help
        self.action = action
    }

    /// What the flag's value must be, for the message when it is missing ("a number from 0.1
    /// to 149 m", or the value's name in the help: "FILE.svg"); nil for a flag without one.
    public var valueDescription: String? {
        switch action {
        case .flag: nil
        case .value(let allowed, _): allowed
        case .expansion(let metavar, _): metavar
        }
    }

    /// Whether the flag reads the argument after it.
    public var takesValue: Bool {
        if case .flag = action { return false }
        return true
    }
}

/// Why a flag's value was refused.
public enum OptionFailure: Error {
    /// The text is not a value the flag accepts: "--flag must be ALLOWED, found 'TEXT'".
    case notAllowed(String)
    /// A message of its own (a value that conflicts with another flag).
    case error(ToolError)
}

extension Option {
    /// A flag without a value.
    public static func flag(_ name: String, help: String..., set: @escaping (inout Options) -> Void) -> Option {
        Option(names: [name], label: name, help: help, action: .flag { o, _ in set(&o) })
    }

    /// A flag without a value that sets the Boolean option at `keyPath` to `value`.
    public static func flag(_ keyPath: WritableKeyPath<Options, Bool>, _ name: String, to value: Bool = true, help: String...) -> Option {
        Option(names: [name], label: name, help: help, action: .flag { o, _ in o[keyPath: keyPath] = value })
    }

    /// Several spellings in one help row ("--ipt | --ras"); `set` learns which was given.
    public static func flags(_ names: [String], label: String, help: String...,
                             set: @escaping (inout Options, _ spelling: String) throws(ToolError) -> Void) -> Option {
        Option(names: names, label: label, help: help, action: .flag(set))
    }

    /// A flag with a typed value that `set` stores; `metavar` names the value in the help
    /// ("--distance M").
    public static func value<T>(_ name: String, _ metavar: String, _ type: OptionValue<T>, help: String...,
                                set: @escaping (inout Options, T) throws(ToolError) -> Void) -> Option {
        Option(names: [name], label: "\(name) \(metavar)", help: help, action: .value(allowed: type.allowed.isEmpty ? metavar : type.allowed) { o, text throws(OptionFailure) in
            guard let v = type.convert(text) else { throw .notAllowed(type.allowed) }
            do throws(ToolError) { try set(&o, v) } catch { throw .error(error) }
        })
    }

    /// A flag with a typed value stored at `keyPath`.
    public static func value<T>(_ keyPath: WritableKeyPath<Options, T>, _ name: String, _ metavar: String, _ type: OptionValue<T>,
                                help: String...) -> Option {
        stored(keyPath, name, metavar, type, help: help)
    }

    /// A flag with a typed value stored at an optional `keyPath`.
    public static func value<T>(_ keyPath: WritableKeyPath<Options, T?>, _ name: String, _ metavar: String, _ type: OptionValue<T>,
                                help: String...) -> Option {
        Option(names: [name], label: "\(name) \(metavar)", help: help, action: .value(allowed: type.allowed.isEmpty ? metavar : type.allowed) { o, text throws(OptionFailure) in
            guard let v = type.convert(text) else { throw .notAllowed(type.allowed) }
            o[keyPath: keyPath] = v
        })
    }

    static func stored<T>(_ keyPath: WritableKeyPath<Options, T>, _ name: String, _ metavar: String, _ type: OptionValue<T>,
                          help: [String]) -> Option {
        Option(names: [name], label: "\(name) \(metavar)", help: help, action: .value(allowed: type.allowed.isEmpty ? metavar : type.allowed) { o, text throws(OptionFailure) in
            guard let v = type.convert(text) else { throw .notAllowed(type.allowed) }
            o[keyPath: keyPath] = v
        })
    }

    /// A flag whose value stands for other arguments, parsed where it stood.
    public static func expansion(_ name: String, _ metavar: String, help: String...,
                                 expand: @escaping (String) throws(ToolError) -> [String]) -> Option {
        Option(names: [name], label: "\(name) \(metavar)", help: help, action: .expansion(metavar: metavar, expand))
    }
}

/// The arguments of a command that are not flags (a capture, an image, a deployment file).
public struct Positional<Options> {
    /// How the help's usage line names it ("CAPTURE.btsnoop").
    public var name: String
    /// Stores one argument; throws when it is one too many (the message says how many fit).
    public var set: (inout Options, String) throws(ToolError) -> Void

    public init(_ name: String, set: @escaping (inout Options, String) throws(ToolError) -> Void) {
        self.name = name
        self.set = set
    }
}
