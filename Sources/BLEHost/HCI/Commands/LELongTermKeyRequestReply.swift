import ReflectorFirmware

/// LE Long Term Key Request Reply (0x201A, Core 6.0 Vol 4 Part E §7.8.25): the peripheral's host
/// gives the key. `Connection_Handle 2 | Long_Term_Key 16`; returns `StatusConnectionHandleReturn`.
public struct LELongTermKeyRequestReply: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leLongTermKeyRequestReply
    public static let name: StaticString = "LE Long Term Key Request Reply"
    public typealias ReturnParameters = StatusConnectionHandleReturn

    public var connectionHandle: UInt16
    /// 16 octets, as on the wire (shorter is zero-padded when encoding).
    public var longTermKey: [UInt8]

    public init(connectionHandle: UInt16, longTermKey: [UInt8]) {
        (self.connectionHandle, self.longTermKey) = (connectionHandle, longTermKey)
    }

    public static let fields: [HCIField<Self>] = [.handle(\.connectionHandle), .key(\.longTermKey, "Long_Term_Key")]
    public static var blank: Self { Self(connectionHandle: 0, longTermKey: []) }
}
