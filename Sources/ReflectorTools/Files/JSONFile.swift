import Foundation

/// Reading a JSON file a command was given: the bytes, parsed, then read by `parse`; every
/// error names the file.
public enum JSONFile {
    public static func read<T>(_ path: String, _ parse: (JSONValue) throws(ToolError) -> T) throws(ToolError) -> T {
        guard let data = FileManager.default.contents(atPath: path) else { throw .badFile("\(path): cannot read the file") }
        do {
            return try parse(try JSONValue.parse(data))
        } catch {
            throw .badFile("\(path): \(error.description)")
        }
    }
}
