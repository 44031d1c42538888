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

    /// One packet to ask about (`CodecOracle.Vector`): for Bumble, `A(hex)` in an expression
    /// makes a random address, `B(hex)` bytes, `acl_fragments(pdu, length)` Bumble's host's ACL
    /// split of a PDU; for `.l2cap`, `ours` is comma-separated H4 ACL packets in hex.
    public typealias Vector = CodecOracle.Vector
    public typealias Answer = CodecOracle.Answer
    public typealias Failure = CodecOracle.Failure

    /// The script, found from this file's place in the repository.
    public static var script: String { CodecOracle.script("bumble_oracle.py") }

    /// Runs Bumble once over `vectors`; one answer a vector, in order.
    public static func answers(_ layer: Layer, _ vectors: [Vector], timeout: TimeInterval = 120) throws -> [Answer] {
        try CodecOracle.answers("Bumble", script: script, [layer.rawValue], vectors, timeout: timeout)
    }
}
