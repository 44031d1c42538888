import ReflectorFirmware

/// Encryption Change v1 (event 0x08, Core 6.0 Vol 4 Part E §7.7.8): `Status 1 |
/// Connection_Handle 2 | Encryption_Enabled 1` (0x00 off, 0x01 on: AES-CCM on LE, 0x02 AES-CCM
/// on BR/EDR).
public struct EncryptionChange: HCIEvent, HCIFieldCodec {
    public static let eventCode = HCIEventCode.encryptionChange
    public static var name: StaticString { "Encryption Change" }

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var encryptionEnabled: UInt8

    public init(status: HCIStatus = .success, connectionHandle: UInt16, encryptionEnabled: UInt8) {
        (self.status, self.connectionHandle, self.encryptionEnabled) = (status, connectionHandle, encryptionEnabled)
    }

    /// LE: AES-CCM on (1) or off (0).
    public init(status: HCIStatus = .success, connectionHandle: UInt16, enabled: Bool) {
        self.init(status: status, connectionHandle: connectionHandle, encryptionEnabled: enabled ? 1 : 0)
    }

    public static let fields: [HCIField<Self>] = [.status(\.status), .handle(\.connectionHandle), .u8(\.encryptionEnabled, "Encryption_Enabled", in: 0...2)]
    public static var blank: Self { Self(connectionHandle: 0, encryptionEnabled: 0) }
}
