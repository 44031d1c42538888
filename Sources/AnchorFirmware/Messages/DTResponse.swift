/// A responder's Response DTM body (Qorvo `struct fira_owr_dt_frame_response`, FiRa MAC 2.0
/// 5.9.13.2): TX timestamp (5), CFO (2, optional), reply time (4), ToF (2, optional), anchor
/// location (optional), active ranging rounds (optional).
public struct DTResponse: Equatable, Sendable {
    public var txTimestamp: UWBTimestamp
    /// Mirrors the Poll: a Final follows (DS-TWR).
    public var finalFollows: Bool
    /// Responder clock frequency offset with respect to the initiator, Q6.10 ppm
    /// ([−32, 32) ppm, ≈0.001 ppm). Sign as Apple's `responderClockFrequencyOffset`: positive when
    /// the responder runs fewer cycles than the initiator.
    public var cfoQ610: Int16?
    /// Db = tx_Response − rx_Poll, responder clock, RCTU.
    public var replyTimeTicks: UInt32
    /// Initiator↔responder ToF from DS-TWR in the previous block, RCTU (may be negative; 0 = invalid).
    public var timeOfFlightTicks: Int16?
    public var location: AnchorCoordinates?
    public var activeRounds: [UInt8]?

    public init(txTimestamp: UWBTimestamp, finalFollows: Bool, cfoQ610: Int16? = nil, replyTimeTicks: UInt32,
                timeOfFlightTicks: Int16? = nil, location: AnchorCoordinates? = nil, activeRounds: [UInt8]? = nil) {
        self.txTimestamp = txTimestamp
        self.finalFollows = finalFollows
        self.cfoQ610 = cfoQ610
        self.replyTimeTicks = replyTimeTicks
        self.timeOfFlightTicks = timeOfFlightTicks
        self.location = location
        self.activeRounds = activeRounds
    }
}
