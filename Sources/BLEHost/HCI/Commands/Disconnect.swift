import ReflectorFirmware

/// Disconnect (0x0406, Core 6.0 Vol 4 Part E §7.1.6): `Connection_Handle 2 | Reason 1` (an HCI
/// error code: Authentication Failure 0x05, Remote User Terminated Connection 0x13, …).
/// Command Status, then Disconnection Complete.
public struct Disconnect: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.disconnect
    public static let name: StaticString = "Disconnect"
    public static var answer: HCICommandAnswer { .status }

    public var connectionHandle: UInt16
    public var reason: HCIStatus

    public init(connectionHandle: UInt16, reason: HCIStatus = .remoteUserTerminatedConnection) {
        (self.connectionHandle, self.reason) = (connectionHandle, reason)
    }

    public static let fields: [HCIField<Self>] = [.handle(\.connectionHandle), .status(\.reason, "Reason")]
    public static var blank: Self { Self(connectionHandle: 0) }
}
