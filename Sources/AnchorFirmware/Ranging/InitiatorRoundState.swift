/// What the initiator of one round knows during a block: its Poll's TX time and the RX time of
/// each Response heard (for the Final's Da_k = tx_Final − rx_Response_k), plus, with SS-TWR, the
/// ToF per responder for the next block's Poll.
struct InitiatorRoundState: Sendable {
    var round: UInt8
    var responders: [UInt16]
    var slots: [UInt8]
    var blockIndex: UInt16 = 0
    var pollTx: UWBTimestamp?
    /// RX time of each responder's Response this block, by management-list position.
    var responseRx: [UWBTimestamp?]
    /// SS-TWR ToF per responder from the previous block (0 = none yet).
    var singleSidedToF: [Int16]

    init(round: UInt8, responders: [UInt16], slots: [UInt8]) {
        self.round = round
        self.responders = responders
        self.slots = slots
        responseRx = [UWBTimestamp?](repeating: nil, count: responders.count)
        singleSidedToF = [Int16](repeating: 0, count: responders.count)
    }
}
