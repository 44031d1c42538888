/// The initiator's Final DTM body, DS-TWR only (Qorvo `struct fira_owr_dt_frame_final`):
/// TX timestamp (5) and one reply time entry per Response the initiator heard.
public struct DTFinal: Equatable, Sendable {
    public var txTimestamp: UWBTimestamp
    public var replyTimes: [DTReplyTimeEntry]

    public init(txTimestamp: UWBTimestamp, replyTimes: [DTReplyTimeEntry]) {
        self.txTimestamp = txTimestamp
        self.replyTimes = replyTimes
    }
}
