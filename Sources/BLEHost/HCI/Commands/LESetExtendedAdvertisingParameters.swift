import ReflectorFirmware

/// LE Set Extended Advertising Parameters v1 (0x2036, Core 6.0 Vol 4 Part E §7.8.53):
/// `Advertising_Handle 1 (0–0xEF) | Advertising_Event_Properties 2 |
/// Primary_Advertising_Interval_Min 3 | Primary_Advertising_Interval_Max 3 |
/// Primary_Advertising_Channel_Map 1 (0–7) | Own_Address_Type 1 (0–3) | Peer_Address_Type 1 (0–1) |
/// Peer_Address 6 | Advertising_Filter_Policy 1 (0–3) | Advertising_TX_Power 1 (signed, 0x7F no
/// preference) | Primary_Advertising_PHY 1 (1 or 3) | Secondary_Advertising_Max_Skip 1 |
/// Secondary_Advertising_PHY 1 (1–3) | Advertising_SID 1 (0–15) |
/// Scan_Request_Notification_Enable 1 (0–1)`, 25 octets. Intervals in 0.625 ms.
public struct LESetExtendedAdvertisingParameters: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingParameters
    public static let name: StaticString = "LE Set Extended Advertising Parameters"

    public var advertisingHandle: UInt8
    /// Bit 0 connectable, 1 scannable, 2 directed, 3 high duty cycle, 4 legacy PDUs, 5 anonymous, 6 include TxPower.
    public var eventProperties: UInt16
    /// 24 bits.
    public var intervalMin: UInt32
    /// 24 bits.
    public var intervalMax: UInt32
    public var channelMap: UInt8
    public var ownAddressType: OwnAddressType
    public var peerAddressType: AddressType
    public var peerAddress: UInt64
    public var filterPolicy: UInt8
    public var txPower: Int8
    public var primaryPHY: UInt8
    public var secondaryMaxSkip: UInt8
    public var secondaryPHY: UInt8
    public var sid: UInt8
    public var scanRequestNotification: Bool

    public init(advertisingHandle: UInt8 = 0, eventProperties: UInt16 = 0x0013, intervalMin: UInt32 = 0x0800, intervalMax: UInt32 = 0x0800,
                channelMap: UInt8 = 0x07, ownAddressType: OwnAddressType = .public, peerAddressType: AddressType = .public, peerAddress: UInt64 = 0,
                filterPolicy: UInt8 = 0, txPower: Int8 = 0x7F, primaryPHY: UInt8 = 1, secondaryMaxSkip: UInt8 = 0,
                secondaryPHY: UInt8 = 1, sid: UInt8 = 0, scanRequestNotification: Bool = false) {
        (self.advertisingHandle, self.eventProperties, self.intervalMin, self.intervalMax, self.channelMap) = (advertisingHandle, eventProperties, intervalMin, intervalMax, channelMap)
        (self.ownAddressType, self.peerAddressType, self.peerAddress, self.filterPolicy, self.txPower) = (ownAddressType, peerAddressType, peerAddress, filterPolicy, txPower)
        (self.primaryPHY, self.secondaryMaxSkip, self.secondaryPHY, self.sid, self.scanRequestNotification) = (primaryPHY, secondaryMaxSkip, secondaryPHY, sid, scanRequestNotification)
    }

    public static let fields: [HCIField<Self>] = [
        .u8(\.advertisingHandle, "Advertising_Handle", in: 0...0xEF), .u16(\.eventProperties, "Advertising_Event_Properties"),
        .u24(\.intervalMin, "Primary_Advertising_Interval_Min"), .u24(\.intervalMax, "Primary_Advertising_Interval_Max"),
        .u8(\.channelMap, "Primary_Advertising_Channel_Map", in: 0...7), .value(\.ownAddressType, "Own_Address_Type"),
        .value(\.peerAddressType, "Peer_Address_Type", in: 0...1), .address(\.peerAddress, "Peer_Address"),
        .u8(\.filterPolicy, "Advertising_Filter_Policy", in: 0...3), .i8(\.txPower, "Advertising_TX_Power"),
        .u8(\.primaryPHY, "Primary_Advertising_PHY", allowing: { $0 == 1 || $0 == 3 }), .u8(\.secondaryMaxSkip, "Secondary_Advertising_Max_Skip"),
        .u8(\.secondaryPHY, "Secondary_Advertising_PHY", in: 1...3), .u8(\.sid, "Advertising_SID", in: 0...0x0F),
        .flag(\.scanRequestNotification, "Scan_Request_Notification_Enable"),
    ]
    public static var blank: Self { Self() }
}
