/// LE CS Read Remote Supported Capabilities: the host asks for the peer's CS capabilities; the answer is Command Status then LE Meta event 0x2C.
/// (Core 6.0 Vol 4 Part E §7.8.131). Parameters: `Connection_Handle 2`.
public struct LECSReadRemoteSupportedCapabilities: ConnectionHandleCommand {
    public static let opcode: UInt16 = HCIOpcode.leCSReadRemoteSupportedCapabilities
    public static var name: StaticString { "LE CS Read Remote Supported Capabilities" }
    public static var answer: HCICommandAnswer { .status }
    public var connectionHandle: UInt16

    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
}
