import ReflectorFirmware

/// LE Enable Encryption (0x2019, Core 6.0 Vol 4 Part E §7.8.24): the central starts encryption.
/// `Connection_Handle 2 | Random_Number 8 | Encrypted_Diversifier 2 | Long_Term_Key 16`, 28
/// octets (LE Secure Connections: Random_Number and EDIV zero).
public struct LEEnableEncryption: HCICommand {
    public static let opcode = HCIOpcode.leEnableEncryption

    public var connectionHandle: UInt16
    public var randomNumber: UInt64
    public var encryptedDiversifier: UInt16
    /// 16 octets, as on the wire (shorter is zero-padded when encoding).
    public var longTermKey: [UInt8]

    public init(connectionHandle: UInt16, randomNumber: UInt64 = 0, encryptedDiversifier: UInt16 = 0, longTermKey: [UInt8]) {
        self.connectionHandle = connectionHandle
        self.randomNumber = randomNumber
        self.encryptedDiversifier = encryptedDiversifier
        self.longTermKey = longTermKey
    }

    public var parameterCapacity: Int { 28 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u64(randomNumber)
        w.u16(encryptedDiversifier)
        w.key(longTermKey)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let h = try r.connectionHandle()
        let rand = try r.u64("Random_Number")
        let ediv = try r.u16("Encrypted_Diversifier")
        return Self(connectionHandle: h, randomNumber: rand, encryptedDiversifier: ediv, longTermKey: try r.key("Long_Term_Key"))
    }
}
