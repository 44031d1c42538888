import WireFormat

/// LE CS Security Enable Complete (LE Meta 0x2E): the CS security start procedure finished and
/// both sides hold the same CS DRBG seed (Core 6.0 Vol 4 Part E §7.7.65.41).
/// 3 octets: `Status 1 | Connection_Handle 2`.
public struct LECSSecurityEnableComplete: LEMetaSubevent {
    public static let subeventCode: UInt8 = LESubeventCode.csSecurityEnableComplete
    public var status: HCIStatus
    public var connectionHandle: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
    }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> LECSSecurityEnableComplete {
        let s = try r.status()
        let h = try r.connectionHandle()
        return LECSSecurityEnableComplete(status: s, connectionHandle: h)
    }
}
