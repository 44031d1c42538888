import ReflectorFirmware

/// LE Read Remote Features (0x2016, Core 6.0 Vol 4 Part E §7.8.21): `Connection_Handle 2`; Command Status, then LE Read Remote Features Complete.
public struct LEReadRemoteFeatures: ConnectionHandleCommand {
    public static let opcode = HCIOpcode.leReadRemoteFeatures
    public static let name: StaticString = "LE Read Remote Features"
    public static var answer: HCICommandAnswer { .status }

    public var connectionHandle: UInt16

    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

    public var parameterCapacity: Int { 2 }
}
