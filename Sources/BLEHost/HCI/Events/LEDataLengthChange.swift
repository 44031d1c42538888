import ReflectorFirmware

/// LE Data Length Change (LE Meta 0x07, Core 6.0 Vol 4 Part E §7.7.65.7): `Connection_Handle 2 |
/// Max_TX_Octets 2 | Max_TX_Time 2 | Max_RX_Octets 2 | Max_RX_Time 2` (octets 0x001B–0x00FB,
/// times in µs 0x0148–0x4290; the decoder checks lengths only, as Bumble does).
public struct LEDataLengthChange: LEMetaSubevent, HCIFieldCodec {
    public static let subeventCode = LESubeventCode.dataLengthChange
    public static var name: StaticString { "LE Data Length Change" }

    public var connectionHandle: UInt16
    public var maxTxOctets: UInt16
    public var maxTxTime: UInt16
    public var maxRxOctets: UInt16
    public var maxRxTime: UInt16

    public init(connectionHandle: UInt16, maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16) {
        (self.connectionHandle, self.maxTxOctets, self.maxTxTime, self.maxRxOctets, self.maxRxTime) = (connectionHandle, maxTxOctets, maxTxTime, maxRxOctets, maxRxTime)
    }

    public static let fields: [HCIField<Self>] = [.handle(\.connectionHandle), .u16(\.maxTxOctets, "Max_TX_Octets"), .u16(\.maxTxTime, "Max_TX_Time"),
                                                  .u16(\.maxRxOctets, "Max_RX_Octets"), .u16(\.maxRxTime, "Max_RX_Time")]
    public static var blank: Self { Self(connectionHandle: 0, maxTxOctets: 0, maxTxTime: 0, maxRxOctets: 0, maxRxTime: 0) }
}
