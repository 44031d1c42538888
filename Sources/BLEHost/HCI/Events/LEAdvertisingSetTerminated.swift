import ReflectorFirmware

/// LE Advertising Set Terminated (LE Meta 0x12, Core 6.0 Vol 4 Part E §7.7.65.18): an extended
/// advertising set stopped, here because a connection was created from it. `Status 1 |
/// Advertising_Handle 1 | Connection_Handle 2 | Num_Completed_Extended_Advertising_Events 1`.
public struct LEAdvertisingSetTerminated: LEMetaSubevent {
    public static let subeventCode = LESubeventCode.advertisingSetTerminated

    public var status: HCIStatus
    public var advertisingHandle: UInt8
    public var connectionHandle: UInt16
    public var completedEvents: UInt8

    public init(status: HCIStatus = .success, advertisingHandle: UInt8, connectionHandle: UInt16, completedEvents: UInt8 = 0) {
        self.status = status
        self.advertisingHandle = advertisingHandle
        self.connectionHandle = connectionHandle
        self.completedEvents = completedEvents
    }

    public var parameterCapacity: Int { 5 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u8(advertisingHandle)
        w.u16(connectionHandle)
        w.u8(completedEvents)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let s = try r.status()
        let a = try r.u8("Advertising_Handle")
        let h = try r.connectionHandle()
        return Self(status: s, advertisingHandle: a, connectionHandle: h, completedEvents: try r.u8("Num_Completed_Extended_Advertising_Events"))
    }
}
