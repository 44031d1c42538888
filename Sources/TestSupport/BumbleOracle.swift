import Foundation

/// Google Bumble as a second implementation of a codec: it builds each packet from its own
/// constructors and parses ours with its own parser, in one `python3` run of
/// `Tests/Peers/bumble_oracle.py` over all the vectors (Bumble is installed by
/// `scripts/ensure-deps`). The tests compare: Bumble's packet is ours octet for octet, and
/// Bumble reads ours back unchanged.
public enum BumbleOracle {
    /// Which of Bumble's parsers reads our octets.
    public enum Layer: String, Sendable {
        /// `hci.HCI_Packet.from_bytes` (H4 octets, the indicator first).
        case hci
        /// `att.ATT_PDU.from_bytes`.
        case att
        /// `smp.SMP_Command.from_bytes`.
        case smp
        /// `hci.HCI_AclDataPacketAssembler`: our H4 ACL packets, hex, comma-separated.
        case l2cap
    }

    /// One packet to ask about: `expression`, the Python expression Bumble builds it from
    /// (empty: build nothing; `A(hex)` makes a random address, `B(hex)` bytes,
    /// `acl_fragments(pdu, length)` Bumble's host's ACL split of a PDU); `ours`, our octets in
    /// hex (for `.l2cap`, comma-separated H4 ACL packets); `fields`, an expression over `c`
    /// (Bumble's parse of ours) and `built` (the bytes of `expression`) whose `repr` comes back
    /// in `Answer.fields`.
    public struct Vector: Sendable {
        public var expression: String, ours: String, fields: String

        public init(_ expression: String, ours: String, fields: String = "") {
            (self.expression, self.ours, self.fields) = (expression, ours, fields)
        }
    }

    /// What Bumble said about one vector; a step that raised reads `ERR <type> <message>`.
    public struct Answer: Sendable, Equatable {
        /// The packet built from `expression` (hex).
        public var built: String
        /// Ours parsed and written back by Bumble (hex).
        public var parsed: String
        /// The class Bumble parsed ours as.
        public var type: String
        /// `repr` of the vector's `fields` expression.
        public var fields: String
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The script, found from this file's place in the repository.
    public static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Peers/bumble_oracle.py").path
    }

    /// Runs Bumble once over `vectors`; one answer a vector, in order.
    public static func answers(_ layer: Layer, _ vectors: [Vector], timeout: TimeInterval = 120) throws -> [Answer] {
        try TemporaryDirectory.with("bumble-oracle") { dir in
            let input = dir.file("vectors.tsv")
            try vectors.map { [$0.expression, $0.ours, $0.fields].joined(separator: "\t") }.joined(separator: "\n")
                .write(toFile: input, atomically: true, encoding: .utf8)
            let r = try ToolProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, layer.rawValue, input], timeout: timeout)
            guard r.status == 0, !r.timedOut else { throw Failure(description: "python3 with bumble failed (status \(r.status)): \(r.stderr)") }
            let answers = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return Answer(built: f[0], parsed: f.count > 1 ? f[1] : "ERR no column", type: f.count > 2 ? f[2] : "", fields: f.count > 3 ? f[3] : "")
            }
            guard answers.count == vectors.count else {
                throw Failure(description: "Bumble answered \(answers.count) of \(vectors.count) vectors: \(r.stdout.prefix(500)) \(r.stderr)")
            }
            return answers
        }
    }
}
