/// LE CS Read Remote FAE Table: the host asks for the peer's per-channel frequency actuation error table; the answer is Command Status then LE Meta event 0x2D.
/// (Core 6.0 Vol 4 Part E §7.8.135). Parameters: `Connection_Handle 2`.
public struct LECSReadRemoteFAETable: ConnectionHandleCommand {
    public static let opcode: UInt16 = HCIOpcode.leCSReadRemoteFAETable
    public static var name: StaticString { "LE CS Read Remote FAE Table" }
    public static var answer: HCICommandAnswer { .status }
    public var connectionHandle: UInt16

    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
}
