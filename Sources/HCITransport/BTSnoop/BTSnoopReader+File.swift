import Foundation

extension BTSnoopReader {
    /// Reads the whole file at `path` and parses it with `parse(_:)`. The file-system step is the
    /// only thing this adds; format problems come back in the result, not as a throw.
    public static func parseFile(atPath path: String) throws(BTSnoopFileError) -> BTSnoopParseResult {
        guard let data = FileManager.default.contents(atPath: path) else { throw .cannotRead(path: path) }
        return parse([UInt8](data))
    }
}
