/// Where an anchor's block timing and common time base come from when a network has several
/// clusters (FiRa DL-TDoA's hop count; Qorvo `DT_ANCHOR_IS_REFERENCE`,
/// `FIRA_OWR_DT_ANCHOR_HOP_COUNT_REFERENCE 0`, `..._INVALID 0xff`).
public enum TimeReferenceRole: Equatable, Sendable {
    /// The global time reference: hop count 0, blocks started on its own crystal, whose counter
    /// is the network's common time base.
    case reference
    /// A bridging anchor: it responds in `parentRound` (a neighbouring cluster's round) and takes
    /// its block start and common time base from that round's Polls; its hop count is the
    /// parent Poll's plus one. It initiates nothing until it is synchronised.
    case bridge(parentRound: UInt8)
}
