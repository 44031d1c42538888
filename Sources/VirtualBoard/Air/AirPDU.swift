/// What one board's link layer puts on the air for the other, at the level the hosts can see
/// (Core 6.0 Vol 6 Part B §2.3 advertising physical channel PDUs, §2.4 data physical channel
/// PDUs). Channels, access addresses, CRCs and connection events are below it: a PDU sent
/// reaches the peer within the same turn of the air, as if every connection event carried
/// all the data queued for it.
public enum AirPDU: Sendable, Equatable {
    /// One advertising event of a set (legacy ADV_IND/ADV_SCAN_IND/ADV_NONCONN_IND, or an
    /// extended ADV_EXT_IND with its AUX_ADV_IND): the advertiser and what it carries.
    case advertisement(Advertisement)
    /// CONNECT_IND (or AUX_CONNECT_REQ): an initiator answers an advertisement.
    case connect(ConnectRequest)
    /// A data physical channel PDU on the connection: LLID (1 continuation of an L2CAP
    /// message, 2 its start, 3 LL control) and payload. `sessionKey` stands in for the CCM
    /// encryption and MIC (Vol 6 Part B §5.1.3): the fingerprint of the session key the sender
    /// encrypted with, nil for a PDU sent in the clear. A receiver whose key differs sees a MIC
    /// failure.
    case data(llid: UInt8, payload: [UInt8], sessionKey: UInt64?)
    /// Not a PDU: the sender left the connection without LL_TERMINATE_IND (a MIC failure, a
    /// response timeout), so its connection events stop and the peer's supervision timer runs.
    case silence

    /// LLID values (Vol 6 Part B §2.4, Table 2.18).
    public static let continuation: UInt8 = 1, start: UInt8 = 2, control: UInt8 = 3
}

/// An advertising event as a scanner or initiator receives it.
public struct Advertisement: Sendable, Equatable {
    public var address: UInt64
    /// 0 public, 1 random (TxAdd).
    public var addressType: UInt8
    public var connectable: Bool
    public var scannable: Bool
    /// Sent with the extended advertising commands (ADV_EXT_IND); else legacy.
    public var extended: Bool
    public var advertisingSID: UInt8
    public var data: [UInt8]
    /// What an active scanner's SCAN_REQ gets (SCAN_RSP / AUX_SCAN_RSP), if scannable.
    public var scanResponse: [UInt8]
    public var txPower: Int8

    public init(address: UInt64, addressType: UInt8, connectable: Bool, scannable: Bool, extended: Bool, advertisingSID: UInt8 = 0,
                data: [UInt8], scanResponse: [UInt8], txPower: Int8 = 0) {
        self.address = address
        self.addressType = addressType
        self.connectable = connectable
        self.scannable = scannable
        self.extended = extended
        self.advertisingSID = advertisingSID
        self.data = data
        self.scanResponse = scanResponse
        self.txPower = txPower
    }
}

/// CONNECT_IND's fields that the hosts see (Vol 6 Part B §2.3.3.1): who connects to whom, and
/// the connection's timing (interval in 1.25 ms, latency in events, timeout in 10 ms).
public struct ConnectRequest: Sendable, Equatable {
    public var initiatorAddress: UInt64
    public var initiatorAddressType: UInt8
    public var advertiserAddress: UInt64
    public var advertiserAddressType: UInt8
    public var interval: UInt16
    public var latency: UInt16
    public var supervisionTimeout: UInt16
    /// Extended (AUX_CONNECT_REQ): the advertiser ends its set with LE Advertising Set Terminated.
    public var extended: Bool

    public init(initiatorAddress: UInt64, initiatorAddressType: UInt8, advertiserAddress: UInt64, advertiserAddressType: UInt8,
                interval: UInt16, latency: UInt16, supervisionTimeout: UInt16, extended: Bool) {
        self.initiatorAddress = initiatorAddress
        self.initiatorAddressType = initiatorAddressType
        self.advertiserAddress = advertiserAddress
        self.advertiserAddressType = advertiserAddressType
        self.interval = interval
        self.latency = latency
        self.supervisionTimeout = supervisionTimeout
        self.extended = extended
    }
}
