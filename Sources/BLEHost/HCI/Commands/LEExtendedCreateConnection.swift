import ReflectorFirmware

/// LE Extended Create Connection v1 (0x2043, Core 6.0 Vol 4 Part E §7.8.66):
/// `Initiator_Filter_Policy 1 (0–1) | Own_Address_Type 1 (0–3) | Peer_Address_Type 1 (0–3) |
/// Peer_Address 6 | Initiating_PHYs 1 (bit 0 LE 1M, bit 1 LE 2M, bit 2 LE Coded; not 0) |
/// {Scan_Interval 2 | Scan_Window 2 | Connection_Interval_Min 2 | Connection_Interval_Max 2 |
/// Max_Latency 2 | Supervision_Timeout 2 | Min_CE_Length 2 | Max_CE_Length 2} × (bits set)`,
/// the 16 octets per PHY interleaved per PHY (1M, 2M, Coded) as Bumble and Zephyr write them.
public struct LEExtendedCreateConnection: HCICommand {
    public static let opcode = HCIOpcode.leExtendedCreateConnection

    public struct PHYParameters: Sendable, Equatable {
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
            self.scanInterval = scanInterval
            self.scanWindow = scanWindow
            self.intervalMin = intervalMin
            self.intervalMax = intervalMax
            self.maxLatency = maxLatency
            self.supervisionTimeout = supervisionTimeout
            self.minCELength = minCELength
            self.maxCELength = maxCELength
        }
    }

    public var filterPolicy: UInt8
    public var ownAddressType: UInt8
    public var peerAddressType: UInt8
    public var peerAddress: UInt64
    public var le1M: PHYParameters?
    public var le2M: PHYParameters?
    public var leCoded: PHYParameters?

    public init(filterPolicy: UInt8 = 0, ownAddressType: UInt8 = 0, peerAddressType: UInt8 = 0, peerAddress: UInt64,
                le1M: PHYParameters? = PHYParameters(), le2M: PHYParameters? = nil, leCoded: PHYParameters? = nil) {
        self.filterPolicy = filterPolicy
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.le1M = le1M
        self.le2M = le2M
        self.leCoded = leCoded
    }

    /// The Initiating_PHYs octet.
    public var initiatingPHYs: UInt8 { (le1M == nil ? 0 : 1) | (le2M == nil ? 0 : 2) | (leCoded == nil ? 0 : 4) }

    public var parameterCapacity: Int { 10 + 16 * 3 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(filterPolicy)
        w.u8(ownAddressType)
        w.u8(peerAddressType)
        w.address(peerAddress)
        w.u8(initiatingPHYs)
        for p in [le1M, le2M, leCoded].compactMap({ $0 }) {
            w.u16(p.scanInterval)
            w.u16(p.scanWindow)
            w.u16(p.intervalMin)
            w.u16(p.intervalMax)
            w.u16(p.maxLatency)
            w.u16(p.supervisionTimeout)
            w.u16(p.minCELength)
            w.u16(p.maxCELength)
        }
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let filter = try r.u8("Initiator_Filter_Policy", in: 0...1)
        let own = try r.u8("Own_Address_Type", in: 0...3)
        let peerType = try r.u8("Peer_Address_Type", in: 0...3)
        let peer = try r.address("Peer_Address")
        let phys = try r.u8("Initiating_PHYs", in: 1...7)
        func read(_ r: inout ByteReader) throws(DecodeError) -> PHYParameters {
            let si = try r.u16("Scan_Interval")
            let sw = try r.u16("Scan_Window")
            let imin = try r.u16("Connection_Interval_Min")
            let imax = try r.u16("Connection_Interval_Max")
            let lat = try r.u16("Max_Latency")
            let to = try r.u16("Supervision_Timeout")
            let cemin = try r.u16("Min_CE_Length")
            return PHYParameters(scanInterval: si, scanWindow: sw, intervalMin: imin, intervalMax: imax, maxLatency: lat,
                                 supervisionTimeout: to, minCELength: cemin, maxCELength: try r.u16("Max_CE_Length"))
        }
        let one = phys & 1 != 0 ? try read(&r) : nil
        let two = phys & 2 != 0 ? try read(&r) : nil
        let coded = phys & 4 != 0 ? try read(&r) : nil
        return Self(filterPolicy: filter, ownAddressType: own, peerAddressType: peerType, peerAddress: peer, le1M: one, le2M: two, leCoded: coded)
    }
}
