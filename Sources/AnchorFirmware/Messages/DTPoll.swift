/// The initiator's Poll DTM body (Qorvo `struct fira_owr_dt_frame_poll`, FiRa MAC 2.0 5.9.13.2):
/// TX timestamp (5), management list, hop count (1, optional), anchor location (1 type + 10/12,
/// optional), active ranging rounds (1 length + indexes, optional).
public struct DTPoll: Equatable, Sendable {
    /// RMARKER transmit time, initiator clock.
    public var txTimestamp: UWBTimestamp
    /// Whether a Final follows (DS-TWR). Without it each entry carries an SS-TWR ToF.
    public var finalFollows: Bool
    public var responders: [DTManagementEntry]
    /// Hops from the reference anchor (0 = the reference, 0xFF invalid).
    public var hopCount: UInt8?
    public var location: AnchorCoordinates?
    public var activeRounds: [UInt8]?

    public init(txTimestamp: UWBTimestamp, finalFollows: Bool, responders: [DTManagementEntry],
                hopCount: UInt8? = nil, location: AnchorCoordinates? = nil, activeRounds: [UInt8]? = nil) {
        self.txTimestamp = txTimestamp
        self.finalFollows = finalFollows
        self.responders = responders
        self.hopCount = hopCount
        self.location = location
        self.activeRounds = activeRounds
    }
}
