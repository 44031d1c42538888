import ReflectorFirmware

/// LE Set Advertising Parameters (0x2006, Core 6.0 Vol 4 Part E §7.8.5): legacy advertising.
/// `Advertising_Interval_Min 2 | Advertising_Interval_Max 2 | Advertising_Type 1 (0–4) |
/// Own_Address_Type 1 (0–3) | Peer_Address_Type 1 (0–1) | Peer_Address 6 |
/// Advertising_Channel_Map 1 | Advertising_Filter_Policy 1 (0–3)`, 15 octets. Intervals in 0.625 ms.
public struct LESetAdvertisingParameters: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leSetAdvertisingParameters
    public static let name: StaticString = "LE Set Advertising Parameters"

    public var intervalMin: UInt16
    public var intervalMax: UInt16
    public var advertisingType: AdvertisingType
    public var ownAddressType: OwnAddressType
    public var peerAddressType: AddressType
    public var peerAddress: UInt64
    /// Bit 0 channel 37, bit 1 channel 38, bit 2 channel 39.
    public var channelMap: UInt8
    public var filterPolicy: UInt8

    public init(intervalMin: UInt16 = 0x0800, intervalMax: UInt16 = 0x0800, advertisingType: AdvertisingType = .connectableUndirected,
                ownAddressType: OwnAddressType = .public, peerAddressType: AddressType = .public, peerAddress: UInt64 = 0, channelMap: UInt8 = 0x07,
                filterPolicy: UInt8 = 0) {
        (self.intervalMin, self.intervalMax, self.advertisingType, self.ownAddressType) = (intervalMin, intervalMax, advertisingType, ownAddressType)
        (self.peerAddressType, self.peerAddress, self.channelMap, self.filterPolicy) = (peerAddressType, peerAddress, channelMap, filterPolicy)
    }

    public static let fields: [HCIField<Self>] = [
        .u16(\.intervalMin, "Advertising_Interval_Min"), .u16(\.intervalMax, "Advertising_Interval_Max"), .value(\.advertisingType, "Advertising_Type"),
        .value(\.ownAddressType, "Own_Address_Type"), .value(\.peerAddressType, "Peer_Address_Type", in: 0...1), .address(\.peerAddress, "Peer_Address"),
        .u8(\.channelMap, "Advertising_Channel_Map", in: 0...7), .u8(\.filterPolicy, "Advertising_Filter_Policy", in: 0...3),
    ]
    public static var blank: Self { Self() }
}
