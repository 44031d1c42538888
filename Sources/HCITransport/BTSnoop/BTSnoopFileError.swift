/// A file-system failure around a btsnoop file (the format errors are `BTSnoopError`).
public enum BTSnoopFileError: Error, Sendable, Equatable {
    case cannotCreate(path: String)
    case cannotRead(path: String)
}
