/// Read Remote Version Information (0x041D, Core 6.0 Vol 4 Part E §7.1.23): the host asks for
/// the peer's Bluetooth version, which the controller learns in the LL version exchange. The
/// phone uses it to check that an accessory is Bluetooth 6.3. Command Status, then event 0x0C.
public struct ReadRemoteVersionInformation: ConnectionHandleCommand {
    public static let opcode: UInt16 = HCIOpcode.readRemoteVersionInformation
    public static var name: StaticString { "Read Remote Version Information" }
    public static var answer: HCICommandAnswer { .status }
    public var connectionHandle: UInt16
    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
}
