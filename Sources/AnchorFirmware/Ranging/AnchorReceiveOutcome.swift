/// What `AnchorEngine.receive` did with a frame, so the simulation can log and assert it.
public enum AnchorReceiveOutcome: Equatable, Sendable {
    /// A responder heard its round's Poll and will answer at `at` (RMARKER, local clock).
    case scheduledResponse(round: UInt8, at: UWBTimestamp)
    /// The initiator recorded the RX time of `responder`'s Response.
    case recordedResponse(round: UInt8, responder: UInt16)
    /// A responder heard the Final and computed the DS-TWR ToF it will report in the next block.
    case measuredTimeOfFlight(round: UInt8, ticks: Int16)
    /// A valid DTM that is not this anchor's business.
    case ignored(AnchorIgnoreReason)
    /// Not a valid DTM.
    case rejected(DTFrameError)
}

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
}
