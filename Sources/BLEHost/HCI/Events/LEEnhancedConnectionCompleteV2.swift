import ReflectorFirmware

/// LE Enhanced Connection Complete v2 (LE Meta 0x29, Core 6.0 Vol 4 Part E §7.7.65.10): the v1
/// fields (`LEEnhancedConnectionComplete`), then `Advertising_Handle 1 | Sync_Handle 2`, 33 octets
/// after the subevent code (0xFF and 0xFFFF when the connection came from neither).
public struct LEEnhancedConnectionCompleteV2: LEMetaSubevent {
    public static let subeventCode = LESubeventCode.enhancedConnectionCompleteV2

    public var connection: LEEnhancedConnectionComplete
    public var advertisingHandle: UInt8
    public var syncHandle: UInt16

    public init(connection: LEEnhancedConnectionComplete, advertisingHandle: UInt8 = 0xFF, syncHandle: UInt16 = 0xFFFF) {
        self.connection = connection
        self.advertisingHandle = advertisingHandle
        self.syncHandle = syncHandle
    }

    public var parameterCapacity: Int { 33 }

    public func encodeParameters(into w: inout ByteWriter) {
        connection.encodeParameters(into: &w)
        w.u8(advertisingHandle)
        w.u16(syncHandle)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let c = try LEEnhancedConnectionComplete.decodeParameters(&r)
        let a = try r.u8("Advertising_Handle")
        return Self(connection: c, advertisingHandle: a, syncHandle: try r.u16("Sync_Handle"))
    }
}
