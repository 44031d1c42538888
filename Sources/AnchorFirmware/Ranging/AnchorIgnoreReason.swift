/// Why a valid DTM was ignored.
public enum AnchorIgnoreReason: Equatable, Sendable {
    /// Another network's session ID.
    case otherSession(UInt32)
    /// A round this anchor has no role in.
    case roundNotAssigned(UInt8)
    /// The sender is not this round's initiator, or not one of its responders.
    case unexpectedSender(UInt16)
    /// A message this anchor's role in the round does not consume (e.g. another responder's Response).
    case unexpectedMessage(DTMessageType)
    /// This anchor is not in the Poll's management list or the Final's reply time list.
    case notListed
    /// A Response or Final of a block other than the current one.
    case otherBlock(UInt16)
    /// A Final in a chained time base whose rate this responder does not know yet (the first
    /// Poll heard): its Poll-to-Final interval cannot be turned into the initiator's ticks.
    case timeBaseUnknown
}
