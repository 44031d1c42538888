import ReflectorFirmware

/// LE Set Extended Advertising Parameters v1 (0x2036, Core 6.0 Vol 4 Part E §7.8.53):
/// `Advertising_Handle 1 | Advertising_Event_Properties 2 | Primary_Advertising_Interval_Min 3 |
/// Primary_Advertising_Interval_Max 3 | Primary_Advertising_Channel_Map 1 | Own_Address_Type 1 (0–3) |
/// Peer_Address_Type 1 (0–1) | Peer_Address 6 | Advertising_Filter_Policy 1 (0–3) |
/// Advertising_TX_Power 1 (signed dBm, 0x7F no preference) | Primary_Advertising_PHY 1 (1, 3) |
/// Secondary_Advertising_Max_Skip 1 | Secondary_Advertising_PHY 1 (1–3) | Advertising_SID 1 (0–15) |
/// Scan_Request_Notification_Enable 1 (0–1)`, 25 octets. Intervals in 0.625 ms.
public struct LESetExtendedAdvertisingParameters: HCICommand {
    public static let opcode = HCIOpcode.leSetExtendedAdvertisingParameters

    public var advertisingHandle: UInt8
    /// Bit 0 connectable, 1 scannable, 2 directed, 3 high duty cycle, 4 legacy PDUs, 5 anonymous, 6 include TxPower.
    public var eventProperties: UInt16
    /// 24 bits.
    public var intervalMin: UInt32
    /// 24 bits.
    public var intervalMax: UInt32
    public var channelMap: UInt8
    public var ownAddressType: UInt8
    public var peerAddressType: UInt8
    public var peerAddress: UInt64
    public var filterPolicy: UInt8
    public var txPower: Int8
    public var primaryPHY: UInt8
    public var secondaryMaxSkip: UInt8
    public var secondaryPHY: UInt8
    public var sid: UInt8
    public var scanRequestNotification: Bool

    public init(advertisingHandle: UInt8 = 0, eventProperties: UInt16 = 0x0013, intervalMin: UInt32 = 0x0800, intervalMax: UInt32 = 0x0800,
                channelMap: UInt8 = 0x07, ownAddressType: UInt8 = 0, peerAddressType: UInt8 = 0, peerAddress: UInt64 = 0,
                filterPolicy: UInt8 = 0, txPower: Int8 = 0x7F, primaryPHY: UInt8 = 1, secondaryMaxSkip: UInt8 = 0,
                secondaryPHY: UInt8 = 1, sid: UInt8 = 0, scanRequestNotification: Bool = false) {
        self.advertisingHandle = advertisingHandle
        self.eventProperties = eventProperties
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.channelMap = channelMap
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.filterPolicy = filterPolicy
        self.txPower = txPower
        self.primaryPHY = primaryPHY
        self.secondaryMaxSkip = secondaryMaxSkip
        self.secondaryPHY = secondaryPHY
        self.sid = sid
        self.scanRequestNotification = scanRequestNotification
    }

    public var parameterCapacity: Int { 25 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(advertisingHandle)
        w.u16(eventProperties)
        w.u24(intervalMin & 0xFF_FFFF)
        w.u24(intervalMax & 0xFF_FFFF)
        w.u8(channelMap)
        w.u8(ownAddressType)
        w.u8(peerAddressType)
        w.address(peerAddress)
        w.u8(filterPolicy)
        w.i8(txPower)
        w.u8(primaryPHY)
        w.u8(secondaryMaxSkip)
        w.u8(secondaryPHY)
        w.u8(sid)
        w.flag(scanRequestNotification)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let handle = try r.u8("Advertising_Handle", in: 0...0xEF)
        let props = try r.u16("Advertising_Event_Properties")
        let min = try r.u24("Primary_Advertising_Interval_Min")
        let max = try r.u24("Primary_Advertising_Interval_Max")
        let map = try r.u8("Primary_Advertising_Channel_Map", in: 0...7)
        let own = try r.u8("Own_Address_Type", in: 0...3)
        let peerType = try r.u8("Peer_Address_Type", in: 0...1)
        let peer = try r.address("Peer_Address")
        let filter = try r.u8("Advertising_Filter_Policy", in: 0...3)
        let tx = try r.i8("Advertising_TX_Power")
        let primary = try r.u8("Primary_Advertising_PHY")
        guard primary == 1 || primary == 3 else { throw .invalidValue(field: "Primary_Advertising_PHY", value: Int(primary)) }
        let skip = try r.u8("Secondary_Advertising_Max_Skip")
        let secondary = try r.u8("Secondary_Advertising_PHY", in: 1...3)
        let sid = try r.u8("Advertising_SID", in: 0...0x0F)
        return Self(advertisingHandle: handle, eventProperties: props, intervalMin: min, intervalMax: max, channelMap: map,
                    ownAddressType: own, peerAddressType: peerType, peerAddress: peer, filterPolicy: filter, txPower: tx,
                    primaryPHY: primary, secondaryMaxSkip: skip, secondaryPHY: secondary, sid: sid,
                    scanRequestNotification: try r.flag("Scan_Request_Notification_Enable"))
    }
}
