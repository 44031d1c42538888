import ReflectorFirmware

/// LE Set Advertising Parameters (0x2006, Core 6.0 Vol 4 Part E §7.8.5): legacy advertising.
/// `Advertising_Interval_Min 2 | Advertising_Interval_Max 2 | Advertising_Type 1 (0–4) |
/// Own_Address_Type 1 (0–3) | Peer_Address_Type 1 (0–1) | Peer_Address 6 |
/// Advertising_Channel_Map 1 | Advertising_Filter_Policy 1 (0–3)`, 15 octets. Intervals in 0.625 ms.
public struct LESetAdvertisingParameters: HCICommand {
    public static let opcode = HCIOpcode.leSetAdvertisingParameters

    public var intervalMin: UInt16
    public var intervalMax: UInt16
    /// ADV_IND 0, ADV_DIRECT_IND (high duty) 1, ADV_SCAN_IND 2, ADV_NONCONN_IND 3, ADV_DIRECT_IND (low duty) 4.
    public var advertisingType: UInt8
    public var ownAddressType: UInt8
    public var peerAddressType: UInt8
    public var peerAddress: UInt64
    /// Bit 0 channel 37, bit 1 channel 38, bit 2 channel 39.
    public var channelMap: UInt8
    public var filterPolicy: UInt8

    public init(intervalMin: UInt16 = 0x0800, intervalMax: UInt16 = 0x0800, advertisingType: UInt8 = 0, ownAddressType: UInt8 = 0,
                peerAddressType: UInt8 = 0, peerAddress: UInt64 = 0, channelMap: UInt8 = 0x07, filterPolicy: UInt8 = 0) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.advertisingType = advertisingType
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.channelMap = channelMap
        self.filterPolicy = filterPolicy
    }

    public var parameterCapacity: Int { 15 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(intervalMin)
        w.u16(intervalMax)
        w.u8(advertisingType)
        w.u8(ownAddressType)
        w.u8(peerAddressType)
        w.address(peerAddress)
        w.u8(channelMap)
        w.u8(filterPolicy)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let min = try r.u16("Advertising_Interval_Min")
        let max = try r.u16("Advertising_Interval_Max")
        let type = try r.u8("Advertising_Type", in: 0...4)
        let own = try r.u8("Own_Address_Type", in: 0...3)
        let peerType = try r.u8("Peer_Address_Type", in: 0...1)
        let peer = try r.address("Peer_Address")
        let map = try r.u8("Advertising_Channel_Map", in: 0...7)
        return Self(intervalMin: min, intervalMax: max, advertisingType: type, ownAddressType: own, peerAddressType: peerType,
                    peerAddress: peer, channelMap: map, filterPolicy: try r.u8("Advertising_Filter_Policy", in: 0...3))
    }
}
