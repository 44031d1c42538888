import ReflectorFirmware

/// LE Read Remote Features Complete (LE Meta 0x04, Core 6.0 Vol 4 Part E §7.7.65.4): `Status 1 |
/// Connection_Handle 2 | LE_Features 8` (the peer's LE feature bits, Vol 6 Part B §4.6).
public struct LEReadRemoteFeaturesComplete: LEMetaSubevent {
    public static let subeventCode = LESubeventCode.readRemoteFeaturesComplete

    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var features: UInt64

    public init(status: HCIStatus = .success, connectionHandle: UInt16, features: UInt64) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.features = features
    }

    public var parameterCapacity: Int { 11 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u8(status.rawValue)
        w.u16(connectionHandle)
        w.u64(features)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let s = try r.status()
        let h = try r.connectionHandle()
        return Self(status: s, connectionHandle: h, features: try r.u64("LE_Features"))
    }
}
