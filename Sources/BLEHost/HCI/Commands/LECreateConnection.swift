import ReflectorFirmware

/// LE Create Connection (0x200D, Core 6.0 Vol 4 Part E §7.8.12): `LE_Scan_Interval 2 |
/// LE_Scan_Window 2 | Initiator_Filter_Policy 1 (0–1) | Peer_Address_Type 1 (0–3) |
/// Peer_Address 6 | Own_Address_Type 1 (0–3) | Connection_Interval_Min 2 |
/// Connection_Interval_Max 2 | Max_Latency 2 | Supervision_Timeout 2 | Min_CE_Length 2 |
/// Max_CE_Length 2`, 25 octets. Scan times in 0.625 ms, connection intervals in 1.25 ms, the
/// supervision timeout in 10 ms. Command Status, then LE Connection Complete.
public struct LECreateConnection: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leCreateConnection
    public static let name: StaticString = "LE Create Connection"
    public static var answer: HCICommandAnswer { .status }

    public var scanInterval: UInt16
    public var scanWindow: UInt16
    public var filterPolicy: UInt8
    public var peerAddressType: AddressType
    public var peerAddress: UInt64
    public var ownAddressType: OwnAddressType
    /// The connection's parameters (the same eight LE Extended Create Connection gives per PHY,
    /// less the scan times, which come first here).
    public var intervalMin: UInt16, intervalMax: UInt16
    public var maxLatency: UInt16, supervisionTimeout: UInt16
    public var minCELength: UInt16, maxCELength: UInt16

    public init(scanInterval: UInt16 = 0x0060, scanWindow: UInt16 = 0x0060, filterPolicy: UInt8 = 0, peerAddressType: AddressType = .public,
                peerAddress: UInt64, ownAddressType: OwnAddressType = .public, intervalMin: UInt16 = 6, intervalMax: UInt16 = 6, maxLatency: UInt16 = 0,
                supervisionTimeout: UInt16 = 400, minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
        (self.scanInterval, self.scanWindow, self.filterPolicy, self.peerAddressType, self.peerAddress, self.ownAddressType) =
            (scanInterval, scanWindow, filterPolicy, peerAddressType, peerAddress, ownAddressType)
        (self.intervalMin, self.intervalMax, self.maxLatency, self.supervisionTimeout, self.minCELength, self.maxCELength) =
            (intervalMin, intervalMax, maxLatency, supervisionTimeout, minCELength, maxCELength)
    }

    public static let fields: [HCIField<Self>] = [
        .u16(\.scanInterval, "LE_Scan_Interval"), .u16(\.scanWindow, "LE_Scan_Window"), .u8(\.filterPolicy, "Initiator_Filter_Policy", in: 0...1),
        .value(\.peerAddressType, "Peer_Address_Type"), .address(\.peerAddress, "Peer_Address"), .value(\.ownAddressType, "Own_Address_Type"),
        .u16(\.intervalMin, "Connection_Interval_Min"), .u16(\.intervalMax, "Connection_Interval_Max"), .u16(\.maxLatency, "Max_Latency"),
        .u16(\.supervisionTimeout, "Supervision_Timeout"), .u16(\.minCELength, "Min_CE_Length"), .u16(\.maxCELength, "Max_CE_Length"),
    ]
    public static var blank: Self { Self(peerAddress: 0) }
}
