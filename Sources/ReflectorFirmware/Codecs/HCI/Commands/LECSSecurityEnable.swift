/// LE CS Security Enable: the initiator's host starts the CS security start procedure that seeds the CS DRBG; the answer is Command Status then LE Meta event 0x2E.
/// (Core 6.0 Vol 4 Part E §7.8.133). Parameters: `Connection_Handle 2`.
public struct LECSSecurityEnable: ConnectionHandleCommand {
    public static let opcode: UInt16 = HCIOpcode.leCSSecurityEnable
    public static var name: StaticString { "LE CS Security Enable" }
    public static var answer: HCICommandAnswer { .status }
    public var connectionHandle: UInt16

    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
}
