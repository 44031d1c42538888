import ReflectorFirmware

/// Encryption Key Refresh Complete (event 0x30, Core 6.0 Vol 4 Part E §7.7.39): `Status 1 |
/// Connection_Handle 2`; an encryption restart with a new key has completed.
public struct EncryptionKeyRefreshComplete: HCIEvent, StatusAndConnectionHandle {
    public static let eventCode = HCIEventCode.encryptionKeyRefreshComplete
    public static var name: StaticString { "Encryption Key Refresh Complete" }

    public var status: HCIStatus
    public var connectionHandle: UInt16

    public init(status: HCIStatus = .success, connectionHandle: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
    }
}
