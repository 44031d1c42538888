import ReflectorFirmware

/// LE Set Data Length (0x2022, Core 6.0 Vol 4 Part E §7.8.33): `Connection_Handle 2 |
/// TX_Octets 2 (0x001B–0x00FB) | TX_Time 2 (0x0148–0x4290 µs)`; returns `StatusConnectionHandleReturn`.
/// The decoder checks only the lengths: out-of-range values are the controller's to refuse
/// (with Unsupported Feature Or Parameter Value, as the spec says), not a malformed packet.
public struct LESetDataLength: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leSetDataLength
    public static let name: StaticString = "LE Set Data Length"
    public typealias ReturnParameters = StatusConnectionHandleReturn

    public var connectionHandle: UInt16
    public var txOctets: UInt16
    public var txTime: UInt16

    public init(connectionHandle: UInt16, txOctets: UInt16 = 251, txTime: UInt16 = 2120) {
        (self.connectionHandle, self.txOctets, self.txTime) = (connectionHandle, txOctets, txTime)
    }

    public static let fields: [HCIField<Self>] = [.handle(\.connectionHandle), .u16(\.txOctets, "TX_Octets"), .u16(\.txTime, "TX_Time")]
    public static var blank: Self { Self(connectionHandle: 0) }
}
