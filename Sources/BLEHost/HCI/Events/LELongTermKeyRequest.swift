import ReflectorFirmware

/// LE Long Term Key Request (LE Meta 0x05, Core 6.0 Vol 4 Part E §7.7.65.5): the peripheral's
/// host is asked for the key. `Connection_Handle 2 | Random_Number 8 | Encrypted_Diversifier 2`
/// (LE Secure Connections: both zero).
public struct LELongTermKeyRequest: LEMetaSubevent, HCIFieldCodec {
    public static let subeventCode = LESubeventCode.longTermKeyRequest
    public static var name: StaticString { "LE Long Term Key Request" }

    public var connectionHandle: UInt16
    public var randomNumber: UInt64
    public var encryptedDiversifier: UInt16

    public init(connectionHandle: UInt16, randomNumber: UInt64 = 0, encryptedDiversifier: UInt16 = 0) {
        (self.connectionHandle, self.randomNumber, self.encryptedDiversifier) = (connectionHandle, randomNumber, encryptedDiversifier)
    }

    public static let fields: [HCIField<Self>] = [.handle(\.connectionHandle), .u64(\.randomNumber, "Random_Number"), .u16(\.encryptedDiversifier, "Encrypted_Diversifier")]
    public static var blank: Self { Self(connectionHandle: 0) }
}
