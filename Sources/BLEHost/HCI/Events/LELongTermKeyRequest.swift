import ReflectorFirmware

/// LE Long Term Key Request (LE Meta 0x05, Core 6.0 Vol 4 Part E §7.7.65.5): the peripheral's
/// host is asked for the key. `Connection_Handle 2 | Random_Number 8 | Encrypted_Diversifier 2`
/// (LE Secure Connections: both zero).
public struct LELongTermKeyRequest: LEMetaSubevent {
    public static let subeventCode = LESubeventCode.longTermKeyRequest

    public var connectionHandle: UInt16
    public var randomNumber: UInt64
    public var encryptedDiversifier: UInt16

    public init(connectionHandle: UInt16, randomNumber: UInt64 = 0, encryptedDiversifier: UInt16 = 0) {
        self.connectionHandle = connectionHandle
        self.randomNumber = randomNumber
        self.encryptedDiversifier = encryptedDiversifier
    }

    public var parameterCapacity: Int { 12 }

    public func encodeParameters(into w: inout ByteWriter) {
        w.u16(connectionHandle)
        w.u64(randomNumber)
        w.u16(encryptedDiversifier)
    }

    public static func decodeParameters(_ r: inout ByteReader) throws(DecodeError) -> Self {
        let h = try r.connectionHandle()
        let rand = try r.u64("Random_Number")
        return Self(connectionHandle: h, randomNumber: rand, encryptedDiversifier: try r.u16("Encrypted_Diversifier"))
    }
}
