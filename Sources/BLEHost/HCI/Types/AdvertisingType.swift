/// Advertising_Type of LE Set Advertising Parameters (Core 6.0 Vol 4 Part E §7.8.5): the
/// legacy advertising PDU a controller sends.
public enum AdvertisingType: UInt8, Sendable, Equatable, CaseIterable {
    /// ADV_IND: connectable and scannable undirected.
    case connectableUndirected = 0x00
    /// ADV_DIRECT_IND, high duty cycle.
    case connectableDirectedHighDuty = 0x01
    /// ADV_SCAN_IND: scannable undirected.
    case scannableUndirected = 0x02
    /// ADV_NONCONN_IND: non-connectable undirected.
    case nonConnectableUndirected = 0x03
    /// ADV_DIRECT_IND, low duty cycle.
    case connectableDirectedLowDuty = 0x04

    public var isConnectable: Bool { [.connectableUndirected, .connectableDirectedHighDuty, .connectableDirectedLowDuty].contains(self) }
    public var isScannable: Bool { self == .connectableUndirected || self == .scannableUndirected }
}
