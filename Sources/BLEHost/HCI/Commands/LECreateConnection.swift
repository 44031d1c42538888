import ReflectorFirmware

/// LE Create Connection (0x200D, Core 6.0 Vol 4 Part E §7.8.12): `LE_Scan_Interval 2 |
/// LE_Scan_Window 2 | Initiator_Filter_Policy 1 (0–1) | Peer_Address_Type 1 (0–3) |
/// Peer_Address 6 | Own_Address_Type 1 (0–3) | Connection_Interval_Min 2 |
/// Connection_Interval_Max 2 | Max_Latency 2 | Supervision_Timeout 2 | Min_CE_Length 2 |
/// Max_CE_Length 2`, 25 octets. Scan times in 0.625 ms, connection intervals in 1.25 ms, the
/// supervision timeout in 10 ms.
public struct LECreateConnection: HCICommand {
    public static let opcode = HCIOpcode.leCreateConnection

    public var scanInterval: UInt16
    public var scanWindow: UInt16
    public var filterPolicy: UInt8
    public var peerAddressType: UInt8
    public var peerAddress: UInt64
    public var ownAddressType: UInt8
    public var intervalMin: UInt16
    public var intervalMax: UInt16
    public var maxLatency: UInt16
    public var supervisionTimeout: UInt16
    public var minCELength: UInt16
    public var maxCELength: UInt16

    public init(scanInterval: UInt16 = 0x0060, scanWindow: UInt16 = 0x0060, filterPolicy: UInt8 = 0, peerAddressType: UInt8 = 0,
                peerAddress: UInt64, ownAddressType: UInt8 = 0, intervalMin: UInt16 = 6, intervalMax: UInt16 = 6, maxLatency: UInt16 = 0,
                supervisionTimeout: UInt16 = 400, minCELength: UInt16 = 0, maxCELength: UInt16 = 0) {
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.filterPolicy = filterPolicy
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.ownAddressType = ownAddressType
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.maxLatency = maxLatency
        self.supervisionTimeout = supervisionTimeout
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    public var parameterCapacity: Int { 25 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(scanInterval)
        w.u16(scanWindow)
        w.u8(filterPolicy)
        w.u8(peerAddressType)
        w.address(peerAddress)
        w.u8(ownAddressType)
        w.u16(intervalMin)
        w.u16(intervalMax)
        w.u16(maxLatency)
        w.u16(supervisionTimeout)
        w.u16(minCELength)
        w.u16(maxCELength)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let si = try r.u16("LE_Scan_Interval")
        let sw = try r.u16("LE_Scan_Window")
        let fp = try r.u8("Initiator_Filter_Policy", in: 0...1)
        let pt = try r.u8("Peer_Address_Type", in: 0...3)
        let pa = try r.address("Peer_Address")
        let own = try r.u8("Own_Address_Type", in: 0...3)
        let imin = try r.u16("Connection_Interval_Min")
        let imax = try r.u16("Connection_Interval_Max")
        let lat = try r.u16("Max_Latency")
        let to = try r.u16("Supervision_Timeout")
        let cemin = try r.u16("Min_CE_Length")
        return Self(scanInterval: si, scanWindow: sw, filterPolicy: fp, peerAddressType: pt, peerAddress: pa, ownAddressType: own,
                    intervalMin: imin, intervalMax: imax, maxLatency: lat, supervisionTimeout: to, minCELength: cemin,
                    maxCELength: try r.u16("Max_CE_Length"))
    }
}
