import ReflectorFirmware

/// Encryption Key Refresh Complete (event 0x30, Core 6.0 Vol 4 Part E §7.7.39): `Status 1 |
/// Connection_Handle 2`; an encryption restart with a new key has completed.
public struct EncryptionKeyRefreshComplete: HCIEvent {
    public static let eventCode = HCIEventCode.encryptionKeyRefreshComplete

    public var status: HCIStatus
    public var connectionHandle: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
    }

    public var parameterCapacity: Int { 3 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let s = try r.status()
        return Self(status: s, connectionHandle: try r.connectionHandle())
    }
}
