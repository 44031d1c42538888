import Foundation

/// A parsed JSON document, kept as a tree so that configuration readers can say exactly which
/// key was wrong and why. Numbers keep their literal (`JSONNumber`), so integers convert
/// exactly. `parse` is the tool's own parser (`JSONParser`): linear in the input, with a depth
/// limit, exact numbers and errors that give the byte offset.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses UTF-8 JSON text: a one-line error with the byte offset for anything that is not
    /// valid UTF-8 or valid JSON, nested deeper than `JSONParser.maximumDepth`, or a number
    /// beyond the double range.
    public static func parse(_ data: Data) throws(ToolError) -> JSONValue {
        try parse(bytes: Array(data))
    }

    public static func parse(bytes: [UInt8]) throws(ToolError) -> JSONValue {
        do throws(JSONParser.Failure) {
            return try document(bytes)
        } catch {
            throw .badFile(error.description)
        }
    }

    /// As `parse`, with the failure's byte offset as a number (for a reader that maps it to a line).
    package static func document(_ bytes: [UInt8]) throws(JSONParser.Failure) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParser.Failure) in
            var parser = JSONParser(buffer)
            return try parser.document()
        }
    }

    /// A short rendering of the value for error messages.
    public var brief: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n.description
        case .string(let s): return "\"\(s)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
