import ReflectorFirmware

/// Encryption Change v1 (event 0x08, Core 6.0 Vol 4 Part E §7.7.8): `Status 1 |
/// Connection_Handle 2 | Encryption_Enabled 1` (0x00 off, 0x01 on: AES-CCM on LE, 0x02 AES-CCM
/// on BR/EDR).
public struct EncryptionChange: HCIEvent {
    public static let eventCode = HCIEventCode.encryptionChange

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var encryptionEnabled: UInt8

    public init(status: HCIStatus = .success, connectionHandle: UInt16, encryptionEnabled: UInt8) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.encryptionEnabled = encryptionEnabled
    }

    /// LE: AES-CCM on (1) or off (0).
    public init(status: HCIStatus = .success, connectionHandle: UInt16, enabled: Bool) {
        self.init(status: status, connectionHandle: connectionHandle, encryptionEnabled: enabled ? 1 : 0)
    }

    public var parameterCapacity: Int { 4 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u8(encryptionEnabled)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let s = try r.status()
        let h = try r.connectionHandle()
        return Self(status: s, connectionHandle: h, encryptionEnabled: try r.u8("Encryption_Enabled", in: 0...2))
    }
}
