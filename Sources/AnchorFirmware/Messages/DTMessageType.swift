/// The three downlink TDoA messages, numbered as UCI reports them and as Apple's
/// `NIDLTDOAMeasurement.MeasurementType` does (.poll 0, .response 1, .final 2). On air the OWR
/// message type is this + 2 (Qorvo `enum fira_owr_message_type`: DT Poll 2, Response 3, Final 4;
/// `FIRA_DT_MEASUREMENT_CONVERT_MESSAGE_TYPE(x) ((x)-2)`).
public enum DTMessageType: UInt8, Equatable, Sendable {
    case poll = 0
    case response = 1
    case final = 2

    /// FiRa message ID 7, One-Way Ranging (Qorvo `FIRA_MESSAGE_ID_ONE_WAY_RANGING`).
    public static let oneWayRangingMessageID: UInt8 = 7

    /// The UWB Message ID octet: FiRa message ID in the low nibble, OWR message type in the high
    /// nibble (Qorvo `FIRA_MESSAGE_UWB_MSG_ID_MASK` / `FIRA_MESSAGE_OWR_MSG_TYPE_MASK`):
    /// 0x27, 0x37, 0x47.
    public var messageIDOctet: UInt8 { (rawValue + 2) << 4 | Self.oneWayRangingMessageID }

    /// The type an UWB Message ID octet carries, or nil if it is not a DTM.
    public init?(messageIDOctet octet: UInt8) {
        guard octet & 0x0F == Self.oneWayRangingMessageID, octet >> 4 >= 2,
              let type = DTMessageType(rawValue: octet >> 4 - 2) else { return nil }
        self = type
    }
}
