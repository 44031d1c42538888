import ReflectorFirmware

/// LE Extended Create Connection v1 (0x2043, Core 6.0 Vol 4 Part E §7.8.66):
/// `Initiator_Filter_Policy 1 (0–1) | Own_Address_Type 1 (0–3) | Peer_Address_Type 1 (0–3) |
/// Peer_Address 6 | Initiating_PHYs 1 (bit 0 LE 1M, bit 1 LE 2M, bit 2 LE Coded; not 0) |
/// {Scan_Interval 2 | Scan_Window 2 | Connection_Interval_Min 2 | Connection_Interval_Max 2 |
/// Max_Latency 2 | Supervision_Timeout 2 | Min_CE_Length 2 | Max_CE_Length 2} × (bits set)`,
/// the 16 octets per PHY interleaved per PHY (1M, 2M, Coded) as Bumble and Zephyr write them.
/// Command Status, then LE Enhanced Connection Complete.
public struct LEExtendedCreateConnection: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leExtendedCreateConnection
    public static let name: StaticString = "LE Extended Create Connection"
    public static var answer: HCICommandAnswer { .status }

    public struct PHYParameters: HCIFieldGroup {
        public var scanInterval: UInt16
        public var scanWindow: UInt16
        public var intervalMin: UInt16
        public var intervalMax: UInt16
        public var maxLatency: UInt16
        public var supervisionTimeout: UInt16
        public var minCELength: UInt16
        public var maxCELength: UInt16

        public init(scanInterval: UInt16 = 0x0060, scanWindow: UInt16 = 0x0060, intervalMin: UInt16 = 6, intervalMax: UInt16 = 6,
                    maxLatency: UInt16 = 0, supervisionTimeout: UInt16 = 400, minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
            (self.scanInterval, self.scanWindow, self.intervalMin, self.intervalMax) = (scanInterval, scanWindow, intervalMin, intervalMax)
            (self.maxLatency, self.supervisionTimeout, self.minCELength, self.maxCELength) = (maxLatency, supervisionTimeout, minCELength, maxCELength)
        }

        public static let fields: [HCIField<Self>] = [
            .u16(\.scanInterval, "Scan_Interval"), .u16(\.scanWindow, "Scan_Window"), .u16(\.intervalMin, "Connection_Interval_Min"),
            .u16(\.intervalMax, "Connection_Interval_Max"), .u16(\.maxLatency, "Max_Latency"), .u16(\.supervisionTimeout, "Supervision_Timeout"),
            .u16(\.minCELength, "Min_CE_Length"), .u16(\.maxCELength, "Max_CE_Length"),
        ]
        public static var blank: Self { Self() }
    }

    public var filterPolicy: UInt8
    public var ownAddressType: OwnAddressType
    public var peerAddressType: AddressType
    public var peerAddress: UInt64
    public var le1M: PHYParameters?
    public var le2M: PHYParameters?
    public var leCoded: PHYParameters?

    public init(filterPolicy: UInt8 = 0, ownAddressType: OwnAddressType = .public, peerAddressType: AddressType = .public, peerAddress: UInt64,
                le1M: PHYParameters? = PHYParameters(), le2M: PHYParameters? = nil, leCoded: PHYParameters? = nil) {
        (self.filterPolicy, self.ownAddressType, self.peerAddressType, self.peerAddress) = (filterPolicy, ownAddressType, peerAddressType, peerAddress)
        (self.le1M, self.le2M, self.leCoded) = (le1M, le2M, leCoded)
    }

    /// The Initiating_PHYs octet.
    public var initiatingPHYs: UInt8 { (le1M == nil ? 0 : 1) | (le2M == nil ? 0 : 2) | (leCoded == nil ? 0 : 4) }

    public static let fields: [HCIField<Self>] = [
        .u8(\.filterPolicy, "Initiator_Filter_Policy", in: 0...1), .value(\.ownAddressType, "Own_Address_Type"),
        .value(\.peerAddressType, "Peer_Address_Type"), .address(\.peerAddress, "Peer_Address"),
        .perPHY("Initiating_PHYs", [(1, \.le1M), (2, \.le2M), (4, \.leCoded)], allowed: { (1...7).contains($0) }),
    ]
    public static var blank: Self { Self(peerAddress: 0) }
}
