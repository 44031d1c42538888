/// An error the command-line tool reports in one line and answers with exit status 2:
/// bad input from the user, never a crash.
public enum ToolError: Error, Equatable, CustomStringConvertible {
    /// A file could not be read or parsed as a whole.
    case badFile(String)
    /// A key of a JSON file is missing or holds a value that is not allowed.
    case badKey(key: String, problem: String)
    /// A command-line argument is wrong.
    case usage(String)
    /// A device (a serial port) could not be used; the text says why and what to do.
    case device(String)

    public var description: String {
        switch self {
        case .badFile(let s): return s
        case .badKey(let key, let problem): return "key \"\(key)\" \(problem)"
        case .usage(let s): return s
        case .device(let s): return s
        }
    }
}
