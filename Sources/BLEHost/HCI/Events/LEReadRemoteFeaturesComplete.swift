import ReflectorFirmware

/// LE Read Remote Features Complete (LE Meta 0x04, Core 6.0 Vol 4 Part E §7.7.65.4): `Status 1 |
/// Connection_Handle 2 | LE_Features 8` (the peer's LE feature bits, Vol 6 Part B §4.6).
public struct LEReadRemoteFeaturesComplete: LEMetaSubevent, HCIFieldCodec {
    public static let subeventCode = LESubeventCode.readRemoteFeaturesComplete
    public static var name: StaticString { "LE Read Remote Features Complete" }

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var features: UInt64

    public init(status: HCIStatus = .success, connectionHandle: UInt16, features: UInt64) {
        (self.status, self.connectionHandle, self.features) = (status, connectionHandle, features)
    }

    public static let fields: [HCIField<Self>] = [.status(\.status), .handle(\.connectionHandle), .u64(\.features, "LE_Features")]
    public static var blank: Self { Self(connectionHandle: 0, features: 0) }
}
