/// One entry of a Final's reply time list (Qorvo `struct fira_owr_dt_frame_reply_time`: responder
/// address (2) + reply time (4, RCTU)): the initiator's time from receiving that responder's
/// Response to sending the Final, Da_k = tx_Final − rx_Response_k.
public struct DTReplyTimeEntry: Equatable, Sendable {
    public var address: UInt16
    public var replyTimeTicks: UInt32

    public init(address: UInt16, replyTimeTicks: UInt32) {
        self.address = address
        self.replyTimeTicks = replyTimeTicks
    }
}
