import Foundation
import TestSupport
@testable import ReflectorTools
@testable import ToolJSON

/// Running commands in process, as the tests need them: parsed options (never the help), an
/// output kept in memory, and JSON rendered to text.
enum CommandTesting {
    struct HelpAsked: Error {}

    /// The options `args` give `C` (throws `HelpAsked` for --help).
    static func options<C: Command>(_: C.Type, _ args: [String]) throws -> C.Options {
        guard let o = try C.parse(args) else { throw HelpAsked() }
        return o
    }

    /// What `body` writes as one JSON value.
    static func json(_ body: (inout JSONWriter) -> Void) -> String {
        var w = JSONWriter()
        body(&w)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

extension CommandOutput {
    /// The output's lines so far (without the last newline).
    var lines: [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

extension TemporaryDirectory {
    /// Writes `text` into a new file of the directory and returns its path.
    func write(_ text: String, name: String = "file-\(UUID().uuidString)") throws -> String {
        try write(Array(text.utf8), name: name)
    }

    /// Writes `bytes` into a new file of the directory and returns its path.
    func write(_ bytes: [UInt8], name: String = "file-\(UUID().uuidString)") throws -> String {
        let path = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
