import Foundation
import ToolJSON

/// Writing the files commands produce (plots, captures): the whole file at once, and one
/// message naming the path when it cannot be written.
public enum OutputFile {
    public static func write(_ text: String, to path: String) throws(ToolError) { try write(Array(text.utf8), to: path) }

    public static func write(_ bytes: [UInt8], to path: String) throws(ToolError) {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw .badFile("\(path): cannot write the file") }
    }
}

/// Right-aligns text in a column of `width` characters (longer text is kept whole).
func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : String(repeating: " ", count: width - s.count) + s }
