import ReflectorFirmware

/// LE Enhanced Connection Complete v2 (LE Meta 0x29, Core 6.0 Vol 4 Part E §7.7.65.10): the v1
/// fields (`LEEnhancedConnectionComplete`), then `Advertising_Handle 1 | Sync_Handle 2`, 33 octets
/// after the subevent code (0xFF and 0xFFFF when the connection came from neither).
public struct LEEnhancedConnectionCompleteV2: LEMetaSubevent, HCIFieldCodec, HCIComposedParameters {
    public static let subeventCode = LESubeventCode.enhancedConnectionCompleteV2
    public static var name: StaticString { "LE Enhanced Connection Complete [v2]" }

    public var connection: LEEnhancedConnectionComplete
    public var advertisingHandle: UInt8
    public var syncHandle: UInt16

    public init(connection: LEEnhancedConnectionComplete, advertisingHandle: UInt8 = 0xFF, syncHandle: UInt16 = 0xFFFF) {
        self.connection = connection
        self.advertisingHandle = advertisingHandle
        self.syncHandle = syncHandle
    }

    public static let fields: [HCIField<Self>] = LEEnhancedConnectionComplete.fields.map { $0.lifted(\Self.connection) }
        + [.u8(\.advertisingHandle, "Advertising_Handle"), .u16(\.syncHandle, "Sync_Handle")]
    public static var blank: Self { Self(connection: .blank) }
}
