import ReflectorFirmware

/// LE Enable Encryption (0x2019, Core 6.0 Vol 4 Part E §7.8.24): the central starts encryption.
/// `Connection_Handle 2 | Random_Number 8 | Encrypted_Diversifier 2 | Long_Term_Key 16`, 28
/// octets (LE Secure Connections: Random_Number and EDIV zero). Command Status, then Encryption
/// Change.
public struct LEEnableEncryption: HCICommand, HCIFieldCodec {
    public static let opcode = HCIOpcode.leEnableEncryption
    public static let name: StaticString = "LE Enable Encryption"
    public static var answer: HCICommandAnswer { .status }

    public var connectionHandle: UInt16
    public var randomNumber: UInt64
    public var encryptedDiversifier: UInt16
    /// 16 octets, as on the wire (shorter is zero-padded when encoding).
    public var longTermKey: [UInt8]

    public init(connectionHandle: UInt16, randomNumber: UInt64 = 0, encryptedDiversifier: UInt16 = 0, longTermKey: [UInt8]) {
        (self.connectionHandle, self.randomNumber, self.encryptedDiversifier, self.longTermKey) = (connectionHandle, randomNumber, encryptedDiversifier, longTermKey)
    }

    public static let fields: [HCIField<Self>] = [.handle(\.connectionHandle), .u64(\.randomNumber, "Random_Number"),
                                                  .u16(\.encryptedDiversifier, "Encrypted_Diversifier"), .key(\.longTermKey, "Long_Term_Key")]
    public static var blank: Self { Self(connectionHandle: 0, longTermKey: []) }
}
