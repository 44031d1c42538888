import Foundation

/// RootCanal's generated HCI packets (`rootcanal.packets.hci`, from its `hci_packets.pdl`; the
/// pip package `scripts/ensure-deps` installs) as a second implementation of our CS codecs, in
/// one `python3` run of `Tests/Peers/rootcanal_oracle.py` over all the vectors. RootCanal
/// builds each packet from its own constructors and parses ours; a packet it cannot parse
/// comes back as the generic `Command` or `Event` with the same octets, so tests check the
/// class name too.
public enum RootCanalOracle {
    /// One packet: `expression`, the Python RootCanal builds it from (`hci` in scope; empty:
    /// build nothing); `ours`, our H4 octets in hex; `fields`, an expression over `c`
    /// (RootCanal's parse of ours) and `built` whose `repr` comes back in `Answer.fields`.
    public struct Vector: Sendable {
        public var expression: String, ours: String, fields: String

        public init(_ expression: String, ours: String, fields: String = "") {
            (self.expression, self.ours, self.fields) = (expression, ours, fields)
        }
    }

    /// What RootCanal said about one vector; a step that raised reads `ERR <type> <message>`.
    public struct Answer: Sendable, Equatable {
        /// The packet built from `expression` (H4 hex; empty when there was none).
        public var built: String
        /// Ours parsed and serialized again by RootCanal (H4 hex).
        public var parsed: String
        /// The class RootCanal parsed ours as.
        public var type: String
        /// `repr` of the vector's `fields` expression.
        public var fields: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Peers/rootcanal_oracle.py").path
    }

    /// Runs RootCanal's packets once over `vectors`; one answer a vector, in order.
    public static func answers(_ vectors: [Vector], timeout: TimeInterval = 120) throws -> [Answer] {
        try TemporaryDirectory.with("rootcanal-oracle") { dir in
            let input = dir.file("vectors.tsv")
            try vectors.map { [$0.expression, $0.ours, $0.fields].joined(separator: "\t") }.joined(separator: "\n")
                .write(toFile: input, atomically: true, encoding: .utf8)
            let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, input], timeout: timeout)
            guard r.status == 0, !r.timedOut else { throw Failure(description: "python3 with rootcanal failed (status \(r.status)): \(r.stderr)") }
            let answers = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return Answer(built: f[0], parsed: f.count > 1 ? f[1] : "ERR no column", type: f.count > 2 ? f[2] : "", fields: f.count > 3 ? f[3] : "")
            }
            guard answers.count == vectors.count else {
                throw Failure(description: "RootCanal answered \(answers.count) of \(vectors.count) vectors: \(r.stdout.prefix(500)) \(r.stderr)")
            }
            return answers
        }
    }
}
