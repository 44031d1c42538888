import ReflectorFirmware

/// LE Long Term Key Request Negative Reply (0x201B, Core 6.0 Vol 4 Part E §7.8.26): `Connection_Handle 2`; the peripheral's host has no key; returns `StatusConnectionHandleReturn`.
public struct LELongTermKeyRequestNegativeReply: ConnectionHandleCommand {
    public static let opcode = HCIOpcode.leLongTermKeyRequestNegativeReply
    public static let name: StaticString = "LE Long Term Key Request Negative Reply"
    public typealias ReturnParameters = StatusConnectionHandleReturn

    public var connectionHandle: UInt16

    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

    public var parameterCapacity: Int { 2 }
}
