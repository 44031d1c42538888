import ReflectorFirmware

/// LE Data Length Change (LE Meta 0x07, Core 6.0 Vol 4 Part E §7.7.65.7): `Connection_Handle 2 |
/// Max_TX_Octets 2 | Max_TX_Time 2 | Max_RX_Octets 2 | Max_RX_Time 2` (octets 0x001B–0x00FB,
/// times in µs 0x0148–0x4290; the decoder checks lengths only, as Bumble does).
public struct LEDataLengthChange: LEMetaSubevent {
    public static let subeventCode = LESubeventCode.dataLengthChange

    public var connectionHandle: UInt16
    public var maxTxOctets: UInt16
    public var maxTxTime: UInt16
    public var maxRxOctets: UInt16
    public var maxRxTime: UInt16

    public init(connectionHandle: UInt16, maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16) {
        self.connectionHandle = connectionHandle
        self.maxTxOctets = maxTxOctets
        self.maxTxTime = maxTxTime
        self.maxRxOctets = maxRxOctets
        self.maxRxTime = maxRxTime
    }

    public var parameterCapacity: Int { 10 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u16(maxTxOctets)
        w.u16(maxTxTime)
        w.u16(maxRxOctets)
        w.u16(maxRxTime)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let h = try r.connectionHandle()
        let to = try r.u16("Max_TX_Octets")
        let tt = try r.u16("Max_TX_Time")
        let ro = try r.u16("Max_RX_Octets")
        return Self(connectionHandle: h, maxTxOctets: to, maxTxTime: tt, maxRxOctets: ro, maxRxTime: try r.u16("Max_RX_Time"))
    }
}
