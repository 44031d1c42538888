/// One entry of a Poll's management list: a responder asked to answer in this round
/// (Qorvo `struct fira_owr_dt_frame_mgmt_entry`; on air: slot index (1, if the control's slot
/// index bit is set), ToF result (2, only without a Final), short address (2)).
public struct DTManagementEntry: Equatable, Sendable {
    /// The responder's short address.
    public var address: UInt16
    /// Its explicit slot, when the initiator specifies slots.
    public var slotIndex: UInt8?
    /// SS-TWR time of flight initiator↔responder from the previous block, RCTU (0 = invalid);
    /// only carried when no Final follows.
    public var timeOfFlightTicks: Int16?

    public init(address: UInt16, slotIndex: UInt8? = nil, timeOfFlightTicks: Int16? = nil) {
        self.address = address
        self.slotIndex = slotIndex
        self.timeOfFlightTicks = timeOfFlightTicks
    }
}
