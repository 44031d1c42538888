/// The stable name of a virtual board (`/tmp/reflector-board` → `/dev/pts/7`): created before
/// clients look for it, replaced if a previous run left one behind, removed at close. The same
/// contract as Bumble's `pty:LINK`.
enum SymbolicLink {
    /// Points `path` at `target`. An existing symbolic link is replaced atomically (`symlink`
    /// to a temporary name beside it, then `rename` over it); a regular file, directory or
    /// device at `path` is left alone and reported as `.linkPathOccupied`.
    static func replace(at path: String, target: String) throws(SerialError) {
        switch SystemCalls.fileKind(path, followLinks: false) {
        case .success(.symbolicLink), .failure(.noSuchFile): break
        case .success(let kind): throw SerialError.linkPathOccupied(path: path, found: kind)
        case .failure(let e): throw SerialError.mapping(e, during: .link, path: path)
        }
        let temporary = "\(path).tmp-\(SystemCalls.processID())"
        _ = SystemCalls.unlink(temporary)
        if case .failure(let e) = SystemCalls.symlink(target: target, at: temporary) {
            throw SerialError.mapping(e, during: .link, path: path)
        }
        if case .failure(let e) = SystemCalls.rename(temporary, to: path) {
            _ = SystemCalls.unlink(temporary)
            throw SerialError.mapping(e, during: .link, path: path)
        }
    }

    /// Removes the link at `path` if it still points at `target` (a newer run may have taken
    /// the name over; its link is left alone). Errors are ignored: this runs at close.
    static func remove(at path: String, ifPointingAt target: String) {
        guard case .success(let current) = SystemCalls.readLink(path), current == target else { return }
        _ = SystemCalls.unlink(path)
    }
}
