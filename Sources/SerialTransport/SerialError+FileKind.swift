/// The user-facing words for what `stat(2)` found at a path (the system-call layer only reports
/// the `SystemCalls.FileKind`).
extension SerialError {
    /// `.notATerminal` for a path that is `kind` (nil when it could not be looked at).
    static func notATerminal(path: String, found kind: SystemCalls.FileKind?) -> SerialError {
        switch kind {
        case .characterDevice?: return .notATerminal(path: path, kind: "a character device that is not a terminal")
        case let kind?: return .notATerminal(path: path, kind: phrase(kind))
        case nil: return .notATerminal(path: path, kind: "not a terminal")
        }
    }

    /// `.linkPathOccupied` for a path that is `kind`.
    static func linkPathOccupied(path: String, found kind: SystemCalls.FileKind) -> SerialError {
        .linkPathOccupied(path: path, kind: phrase(kind))
    }

    /// Words for an error message ("it is a regular file").
    static func phrase(_ kind: SystemCalls.FileKind) -> String {
        switch kind {
        case .characterDevice: return "a character device"
        case .regularFile: return "a regular file"
        case .directory: return "a directory"
        case .symbolicLink: return "a symbolic link"
        case .other: return "a special file"
        }
    }
}
