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
