import Foundation

/// RootCanal's generated HCI packets (`rootcanal.packets.hci`, from its `hci_packets.pdl`; the
/// pip package `scripts/ensure-deps` installs) as a second implementation of our CS codecs, in
/// one `python3` run of `Tests/Peers/rootcanal_oracle.py` over all the vectors. RootCanal
/// builds each packet from its own constructors and parses ours; a packet it cannot parse
/// comes back as the generic `Command` or `Event` with the same octets, so tests check the
/// class name too.
public enum RootCanalOracle {
    /// One packet (`CodecOracle.Vector`): `hci` is in scope in an expression; `ours` is H4 hex.
    public typealias Vector = CodecOracle.Vector
    public typealias Answer = CodecOracle.Answer
    public typealias Failure = CodecOracle.Failure

    public static var script: String { CodecOracle.script("rootcanal_oracle.py") }

    /// Runs RootCanal's packets once over `vectors`; one answer a vector, in order.
    public static func answers(_ vectors: [Vector], timeout: TimeInterval = 120) throws -> [Answer] {
        try CodecOracle.answers("RootCanal", script: script, [], vectors, timeout: timeout)
    }
}
