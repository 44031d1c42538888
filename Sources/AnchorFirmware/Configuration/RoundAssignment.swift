/// This anchor's role in one ranging round of the block. FiRa lets an anchor act per round
/// (Qorvo `enum fira_dt_anchor_acting_role`: responder 0, initiator 1); NXP's demo anchor is
/// initiator in rounds 0 and 2 and responder in 1 and 3.
public enum RoundAssignment: Equatable, Sendable {
    /// This anchor sends the round's Poll (and Final) to at most 8 responders. `slots` is empty for
    /// implicit scheduling (responder k in slot k + 1), or one explicit slot per responder, sent in
    /// the Poll's management list (UWB_DT_ANCHOR_RESPONDER_SCHEDULING_SPECIFIED).
    case initiator(round: UInt8, responders: [UInt16], slots: [UInt8] = [])
    /// This anchor answers the Poll of `initiator` in this round.
    case responder(round: UInt8, initiator: UInt16)

    /// The round index.
    public var round: UInt8 {
        switch self {
        case let .initiator(round, _, _): round
        case let .responder(round, _): round
        }
    }
}
