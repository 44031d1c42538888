import ToolJSON

extension Option {
    /// This row for a command whose options keep these at `keyPath`: a group of flags several
    /// commands share, defined once (argument-parser's `@OptionGroup`).
    public func lifted<Outer>(_ keyPath: WritableKeyPath<Outer, Options>) -> Option<Outer> {
        let lifted: Option<Outer>.Action
        switch action {
        case .flag(let set): lifted = .flag { o, spelling throws(ToolError) in try set(&o[keyPath: keyPath], spelling) }
        case .value(let allowed, let set): lifted = .value(allowed: allowed) { o, text throws(OptionFailure) in try set(&o[keyPath: keyPath], text) }
        case .expansion(let metavar, let expand): lifted = .expansion(metavar: metavar, expand)
        }
        return Option<Outer>(names: names, label: label, help: help, action: lifted)
    }
}
