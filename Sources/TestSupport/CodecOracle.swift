import Foundation

/// What a codec oracle (`BumbleOracle`, `RootCanalOracle`) is asked and answers, and its one
/// run: the vectors as tab-separated lines to a `python3` script under `Tests/Peers`, one
/// answer line back a vector, in order.
public enum CodecOracle {
    /// One packet to ask about: `expression`, the Python expression the oracle builds it from
    /// (empty: build nothing); `ours`, our octets in hex; `fields`, an expression over `c` (the
    /// oracle's parse of ours) and `built` (the bytes of `expression`) whose `repr` comes back in
    /// `Answer.fields`. Each oracle says what its expressions may use.
    public struct Vector: Sendable {
        public var expression: String, ours: String, fields: String

        public init(_ expression: String, ours: String, fields: String = "") {
            (self.expression, self.ours, self.fields) = (expression, ours, fields)
        }
    }

    /// What the oracle said about one vector; a step that raised reads `ERR <type> <message>`.
    public struct Answer: Sendable, Equatable {
        /// The packet built from `expression` (hex; empty when there was none).
        public var built: String
        /// Ours parsed and written back by the oracle (hex).
        public var parsed: String
        /// The class the oracle parsed ours as.
        public var type: String
        /// `repr` of the vector's `fields` expression.
        public var fields: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `Tests/Peers/NAME`, found from this file's place in the repository.
    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Peers/\(name)").path
    }

    /// Runs `python3 script arguments… VECTORS.tsv` once over `vectors` (`oracle` names it in
    /// failures); one answer a vector, in order.
    static func answers(_ oracle: String, script: String, _ arguments: [String], _ vectors: [Vector], timeout: TimeInterval) throws -> [Answer] {
        try TemporaryDirectory.with("\(oracle.lowercased())-oracle") { dir in
            let input = dir.file("vectors.tsv")
            try vectors.map { [$0.expression, $0.ours, $0.fields].joined(separator: "\t") }.joined(separator: "\n")
                .write(toFile: input, atomically: true, encoding: .utf8)
            let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script] + arguments + [input], timeout: timeout)
            guard r.status == 0, !r.timedOut else { throw Failure(description: "python3 with \(oracle.lowercased()) failed (status \(r.status)): \(r.stderr)") }
            let answers = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return Answer(built: f[0], parsed: f.count > 1 ? f[1] : "ERR no column", type: f.count > 2 ? f[2] : "", fields: f.count > 3 ? f[3] : "")
            }
            guard answers.count == vectors.count else {
                throw Failure(description: "\(oracle) answered \(answers.count) of \(vectors.count) vectors: \(r.stdout.prefix(500)) \(r.stderr)")
            }
            return answers
        }
    }
}
