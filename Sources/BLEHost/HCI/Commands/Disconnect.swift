import ReflectorFirmware

/// Disconnect (0x0406, Core 6.0 Vol 4 Part E §7.1.6): `Connection_Handle 2 | Reason 1` (an HCI
/// error code: Authentication Failure 0x05, Remote User Terminated Connection 0x13, …).
public struct Disconnect: HCICommand {
    public static let opcode = HCIOpcode.disconnect

    public var connectionHandle: UInt16
    public var reason: HCIStatus

    public init(connectionHandle: UInt16, reason: HCIStatus = .remoteUserTerminatedConnection) {
        self.connectionHandle = connectionHandle
        self.reason = reason
    }

    public var parameterCapacity: Int { 3 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u8(reason.rawValue)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let h = try r.connectionHandle()
        return Self(connectionHandle: h, reason: try r.status("Reason"))
    }
}
