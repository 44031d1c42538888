import ReflectorFirmware

/// LE Advertising Set Terminated (LE Meta 0x12, Core 6.0 Vol 4 Part E §7.7.65.18): an extended
/// advertising set stopped, here because a connection was created from it. `Status 1 |
/// Advertising_Handle 1 | Connection_Handle 2 | Num_Completed_Extended_Advertising_Events 1`.
public struct LEAdvertisingSetTerminated: LEMetaSubevent, HCIFieldCodec {
    public static let subeventCode = LESubeventCode.advertisingSetTerminated
    public static var name: StaticString { "LE Advertising Set Terminated" }

    public var status: HCIStatus
    public var advertisingHandle: UInt8
    public var connectionHandle: UInt16
    public var completedEvents: UInt8

    public init(status: HCIStatus = .success, advertisingHandle: UInt8, connectionHandle: UInt16, completedEvents: UInt8 = 0) {
        (self.status, self.advertisingHandle, self.connectionHandle, self.completedEvents) = (status, advertisingHandle, connectionHandle, completedEvents)
    }

    public static let fields: [HCIField<Self>] = [.status(\.status), .u8(\.advertisingHandle, "Advertising_Handle"), .handle(\.connectionHandle),
                                                  .u8(\.completedEvents, "Num_Completed_Extended_Advertising_Events")]
    public static var blank: Self { Self(advertisingHandle: 0, connectionHandle: 0) }
}
